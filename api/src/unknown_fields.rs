//! Unknown fields are refused at every depth (issue 26 item 8): a request body is walked
//! against the schema the document gives it, and the first field no schema on the way names is
//! reported by its JSON Pointer, so a typo (`"contingnecy"`) is a 400, not a silently lost
//! field. One check for every route and ruleset, from the same document clients are generated
//! from: a set-up or command type that does not say `deny_unknown_fields` is covered too, and so
//! is a field inside a union variant or a map's values.

use std::sync::OnceLock;

use serde_json::Value;

/// Where the document comes from: installed once by start-up (the composition root, which knows
/// the OpenAPI assembly), so that this check sits below the routes and the problem mapping that
/// use it instead of reaching up to the layer that lists every route.
static SOURCE: OnceLock<fn() -> Value> = OnceLock::new();

/// Install the function that builds the document; the document is built on first use (it takes
/// seconds in a debug build) and kept. Later installs are ignored: there is one document.
pub fn install(source: fn() -> Value) {
    let _ = SOURCE.set(source);
}

/// The document the checks read (built once); `None` until start-up installed its source, when
/// no field can be judged unknown.
fn document() -> Option<&'static Value> {
    static DOCUMENT: OnceLock<Value> = OnceLock::new();
    let source = SOURCE.get()?;
    Some(DOCUMENT.get_or_init(source))
}

/// The first field of the body of `method pattern` (a route pattern such as
/// `/v1/battles/{battle_id}/strategies`) that its schema does not name: its JSON Pointer.
/// `None` when every field is named, or the route has no body schema in the document.
pub fn in_request(method: &str, pattern: &str, body: &Value) -> Option<String> {
    let schema = document()?
        .get("paths")?
        .get(pattern)?
        .get(method.to_ascii_lowercase())?
        .pointer("/requestBody/content/application~1json/schema")?;
    first_unknown(body, schema, &At::Root)
}

/// As [`in_request`], against the component schema `name` (a ruleset's command union).
pub fn in_component(name: &str, body: &Value) -> Option<String> {
    let schema = component(document()?, name)?;
    first_unknown(body, schema, &At::Root)
}

/// The component schema `name` of `document`.
fn component<'a>(document: &'a Value, name: &str) -> Option<&'a Value> {
    document.get("components")?.get("schemas")?.get(name)
}

/// What a local reference (`#/components/schemas/BattleSetup`) points at. The document's
/// references all name a component schema, looked up directly (this runs for every object of
/// every request body); any other pointer is followed as a JSON Pointer.
fn target(reference: &str) -> Option<&'static Value> {
    let document = document()?;
    let pointer = reference.strip_prefix('#')?;
    match pointer.strip_prefix("/components/schemas/") {
        Some(name) if !name.contains(['/', '~']) => component(document, name),
        _ => document.pointer(pointer),
    }
}

fn resolve(schema: &Value) -> &Value {
    let mut schema = schema;
    for _ in 0..32 {
        match schema.get("$ref").and_then(Value::as_str) {
            Some(reference) => match target(reference) {
                Some(found) => schema = found,
                None => return schema,
            },
            None => return schema,
        }
    }
    schema
}

/// Where a value sits in the body, as a chain to its parent: the JSON Pointer is written only
/// for the field reported, not for every field walked.
enum At<'a> {
    Root,
    Field(&'a At<'a>, &'a str),
    Item(&'a At<'a>, usize),
}

impl At<'_> {
    /// The JSON Pointer (`/armies/a/contingnecy`), keys escaped (`~0`, `~1`).
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

/// How a value fits a schema, as far as its fields go.
enum Fit {
    /// Every field is named.
    Named,
    /// A field no schema names, by its pointer.
    Unknown(String),
    /// Not this schema at all (another type, another tag): for a union, another variant.
    Other,
}

/// The pointer of the first unknown field of `value` under `schema`, `at` being its own.
fn first_unknown(value: &Value, schema: &Value, at: &At) -> Option<String> {
    match fit(value, schema, at) {
        Fit::Unknown(pointer) => Some(pointer),
        Fit::Named | Fit::Other => None,
    }
}

fn fit(value: &Value, schema: &Value, at: &At) -> Fit {
    let schema = resolve(schema);
    if let Some(variants) = schema.get("oneOf").or_else(|| schema.get("anyOf")).and_then(Value::as_array) {
        if let Some(chosen) = discriminated(value, schema) {
            return fit(value, chosen, at);
        }
        // The variant the value fits; else what the deepest-reaching variant of its type and
        // tags found (the one it was most likely meant as).
        let mut best: Option<String> = None;
        for variant in variants {
            match fit(value, variant, at) {
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
            // The parts' own property tables, read in place (the document's schemas are never
            // copied); a later part's property wins, as when the parts are merged.
            let parts: Vec<&Value> = schema
                .get("allOf")
                .and_then(Value::as_array)
                .map(|parts| parts.iter().map(resolve).collect())
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
            // A tag of another variant (`"by": "square"` against the `base` variant): a string
            // the body gives where the schema allows one other value only.
            let tag_differs = fields.iter().any(|(key, given)| {
                given.is_string()
                    && property(key).is_some_and(|property| {
                        let allowed = resolve(property).get("enum").and_then(Value::as_array);
                        allowed.is_some_and(|allowed| allowed.len() == 1 && !allowed.contains(given))
                    })
            });
            if tag_differs {
                return Fit::Other;
            }
            let additional = schema.get("additionalProperties");
            // A free-form object (no properties named, no rule for others) takes anything.
            if tables.iter().all(|named| named.is_empty()) && additional.is_none() {
                return Fit::Named;
            }
            for (key, field) in fields {
                let here = At::Field(at, key);
                let found = match (property(key), additional) {
                    (Some(property), _) => first_unknown(field, property, &here),
                    (None, Some(Value::Bool(true))) => None,
                    (None, Some(other @ Value::Object(_))) => first_unknown(field, other, &here),
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
                .find_map(|(index, value)| first_unknown(value, item, &At::Item(at, index)))
                .map_or(Fit::Named, Fit::Unknown)
        }
        _ => Fit::Named,
    }
}

/// Whether `value` is of a type `schema` allows (any, when it names none).
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

/// The variant of a discriminated union `value` names, if it names one.
fn discriminated(value: &Value, schema: &Value) -> Option<&'static Value> {
    let discriminator = schema.get("discriminator")?;
    let property = discriminator.get("propertyName")?.as_str()?;
    let tag = value.get(property)?.as_str()?;
    target(discriminator.get("mapping")?.get(tag)?.as_str()?)
}

#[cfg(test)]
mod tests {
    use serde_json::json;

    #[test]
    fn a_typo_deep_in_a_coalition_set_up_is_found_and_a_right_one_passes() {
        super::install(crate::openapi::spec_value);
        let document = crate::openapi::spec_value();
        let example = document
            .pointer(
                "/paths/~1v1~1battles/post/requestBody/content/application~1json/examples/CreateCoalitionBattle/value",
            )
            .cloned()
            .expect("the coalition battle example");
        assert_eq!(super::in_request("POST", "/v1/battles", &example), None);
        let mut typo = example.clone();
        typo["engagement"]["attackr"] = json!("a");
        assert_eq!(super::in_request("POST", "/v1/battles", &typo).as_deref(), Some("/engagement/attackr"));
        let mut typo = example;
        typo["armies"]["a"]["contingnecy"] = json!(true);
        assert_eq!(super::in_request("POST", "/v1/battles", &typo).as_deref(), Some("/armies/a/contingnecy"));
    }
}
