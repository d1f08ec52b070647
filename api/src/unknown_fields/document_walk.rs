//! The unknown-field walk as it was before the schemas were compiled (issue 29 item 3): every
//! keyword looked up in the document at each node of the body, every `$ref` resolved by name
//! each time. Kept as the oracle the compiled tree is tested against (`super::tests`) and timed
//! against (`api/benches/unknown_fields.rs`, which includes this file): it must answer exactly
//! as the compiled walk does, for every body and every schema. The document is passed in rather
//! than read from the installed source, so a test may hand it a document of its own.

use serde_json::Value;

/// The first field of the body of `method pattern` that its schema in `document` does not name.
pub fn in_request(document: &Value, method: &str, pattern: &str, body: &Value) -> Option<String> {
    let schema = document
        .get("paths")?
        .get(pattern)?
        .get(method.to_ascii_lowercase())?
        .pointer("/requestBody/content/application~1json/schema")?;
    first_unknown(document, body, schema, &At::Root)
}

/// As [`in_request`], against the component schema `name` of `document`.
pub fn in_component(document: &Value, name: &str, body: &Value) -> Option<String> {
    let schema = component(document, name)?;
    first_unknown(document, body, schema, &At::Root)
}

fn component<'d>(document: &'d Value, name: &str) -> Option<&'d Value> {
    document.get("components")?.get("schemas")?.get(name)
}

fn target<'d>(document: &'d Value, reference: &str) -> Option<&'d Value> {
    let pointer = reference.strip_prefix('#')?;
    match pointer.strip_prefix("/components/schemas/") {
        Some(name) if !name.contains(['/', '~']) => component(document, name),
        _ => document.pointer(pointer),
    }
}

fn resolve<'d>(document: &'d Value, schema: &'d Value) -> &'d Value {
    let mut schema = schema;
    for _ in 0..32 {
        match schema.get("$ref").and_then(Value::as_str) {
            Some(reference) => match target(document, reference) {
                Some(found) => schema = found,
                None => return schema,
            },
            None => return schema,
        }
    }
    schema
}

enum At<'a> {
    Root,
    Field(&'a At<'a>, &'a str),
    Item(&'a At<'a>, usize),
}

impl At<'_> {
    fn pointer(&self) -> String {
        let mut pointer = String::new();
        self.write(&mut pointer);
        pointer
    }

    fn write(&self, pointer: &mut String) {
        match self {
            At::Root => {}
            At::Field(parent, key) => {
                parent.write(pointer);
                pointer.push('/');
                pointer.push_str(&key.replace('~', "~0").replace('/', "~1"));
            }
            At::Item(parent, index) => {
                parent.write(pointer);
                pointer.push('/');
                pointer.push_str(&index.to_string());
            }
        }
    }
}

enum Fit {
    Named,
    Unknown(String),
    Other,
}

fn first_unknown(document: &Value, value: &Value, schema: &Value, at: &At) -> Option<String> {
    match fit(document, value, schema, at) {
        Fit::Unknown(pointer) => Some(pointer),
        Fit::Named | Fit::Other => None,
    }
}

fn fit(document: &Value, value: &Value, schema: &Value, at: &At) -> Fit {
    let schema = resolve(document, schema);
    if let Some(variants) = schema.get("oneOf").or_else(|| schema.get("anyOf")).and_then(Value::as_array) {
        if let Some(chosen) = discriminated(document, value, schema) {
            return fit(document, value, chosen, at);
        }
        let mut best: Option<String> = None;
        for variant in variants {
            match fit(document, value, variant, at) {
                Fit::Named => return Fit::Named,
                Fit::Other => {}
                Fit::Unknown(found) => {
                    if best.as_ref().is_none_or(|best| found.matches('/').count() > best.matches('/').count()) {
                        best = Some(found);
                    }
                }
            }
        }
        return best.map_or(Fit::Other, Fit::Unknown);
    }
    if !of_type(value, schema) {
        return Fit::Other;
    }
    match value {
        Value::Object(fields) => {
            let parts: Vec<&Value> = schema
                .get("allOf")
                .and_then(Value::as_array)
                .map(|parts| parts.iter().map(|part| resolve(document, part)).collect())
                .unwrap_or_else(|| vec![schema]);
            let mut tables = Vec::with_capacity(parts.len());
            for part in &parts {
                if !of_type(value, part) {
                    return Fit::Other;
                }
                if let Some(named) = part.get("properties").and_then(Value::as_object) {
                    tables.push(named);
                }
            }
            let property = |key: &str| tables.iter().rev().find_map(|named| named.get(key));
            let tag_differs = fields.iter().any(|(key, given)| {
                given.is_string()
                    && property(key).is_some_and(|property| {
                        let allowed = resolve(document, property).get("enum").and_then(Value::as_array);
                        allowed.is_some_and(|allowed| allowed.len() == 1 && !allowed.contains(given))
                    })
            });
            if tag_differs {
                return Fit::Other;
            }
            let additional = schema.get("additionalProperties");
            if tables.iter().all(|named| named.is_empty()) && additional.is_none() {
                return Fit::Named;
            }
            for (key, field) in fields {
                let here = At::Field(at, key);
                let found = match (property(key), additional) {
                    (Some(property), _) => first_unknown(document, field, property, &here),
                    (None, Some(Value::Bool(true))) => None,
                    (None, Some(other @ Value::Object(_))) => first_unknown(document, field, other, &here),
                    (None, _) => Some(here.pointer()),
                };
                if let Some(found) = found {
                    return Fit::Unknown(found);
                }
            }
            Fit::Named
        }
        Value::Array(items) => {
            let Some(item) = schema.get("items") else { return Fit::Named };
            items
                .iter()
                .enumerate()
                .find_map(|(index, value)| first_unknown(document, value, item, &At::Item(at, index)))
                .map_or(Fit::Named, Fit::Unknown)
        }
        _ => Fit::Named,
    }
}

fn of_type(value: &Value, schema: &Value) -> bool {
    let name = match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(number) if number.is_i64() || number.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    };
    let fits = |allowed: &Value| allowed == name || (name == "integer" && allowed == "number");
    match schema.get("type") {
        None => true,
        Some(Value::Array(types)) => types.iter().any(fits),
        Some(single) => fits(single),
    }
}

fn discriminated<'d>(document: &'d Value, value: &Value, schema: &'d Value) -> Option<&'d Value> {
    let discriminator = schema.get("discriminator")?;
    let property = discriminator.get("propertyName")?.as_str()?;
    let tag = value.get(property)?.as_str()?;
    target(document, discriminator.get("mapping")?.get(tag)?.as_str()?)
}
