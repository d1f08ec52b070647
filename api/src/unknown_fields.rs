//! Unknown fields are refused at every depth (issue 26 item 8): a request body is walked
//! against the schema the document gives it, and the first field no schema on the way names is
//! reported by its JSON Pointer, so a typo (`"contingnecy"`) is a 400, not a silently lost
//! field. One check for every route and ruleset, from the same document clients are generated
//! from: a set-up or command type that does not say `deny_unknown_fields` is covered too, and so
//! is a field inside a union variant or a map's values.
//!
//! The document's schemas are compiled once, at first use, into a tree of their own (issue 29
//! item 3): per schema its references already followed, its properties in a sorted table, the
//! rule for other properties, its items, its union's variants and discriminator. Walking a body
//! then looks no keyword up in the document and resolves no reference by name; the walk had
//! been 7% of the server's CPU on a create, a set-up being a large body. What the tree answers
//! is exactly what walking the document answers: that walk is kept as the tests' oracle
//! (`unknown_fields/document_walk.rs`), and the tests hold the two to the same pointer on every
//! body tried.

use std::collections::{BTreeMap, HashMap};
use std::sync::OnceLock;

use serde_json::{Map, Value};

/// Where the document comes from: installed once by start-up (the composition root, which knows
/// the OpenAPI assembly), so that this check sits below the routes and the problem mapping that
/// use it instead of reaching up to the layer that lists every route.
static SOURCE: OnceLock<fn() -> Value> = OnceLock::new();

/// Install the function that builds the document; the document is built and compiled on first
/// use (building it takes seconds in a debug build) and the compiled tree kept. Later installs
/// are ignored: there is one document.
pub fn install(source: fn() -> Value) {
    let _ = SOURCE.set(source);
}

/// The compiled schemas of the document; `None` until start-up installed its source, when no
/// field can be judged unknown.
fn schemas() -> Option<&'static Schemas> {
    static SCHEMAS: OnceLock<Schemas> = OnceLock::new();
    let source = SOURCE.get()?;
    Some(SCHEMAS.get_or_init(|| Schemas::compile(&source())))
}

/// The first field of the body of `method pattern` (a route pattern such as
/// `/v1/battles/{battle_id}/strategies`) that its schema does not name: its JSON Pointer.
/// `None` when every field is named, or the route has no body schema in the document.
pub fn in_request(method: &str, pattern: &str, body: &Value) -> Option<String> {
    schemas()?.in_request(method, pattern, body)
}

/// As [`in_request`], against the component schema `name` (a ruleset's command union).
pub fn in_component(name: &str, body: &Value) -> Option<String> {
    schemas()?.in_component(name, body)
}

/// A compiled schema: its index in [`Schemas::nodes`].
type Id = usize;

/// The document's request body schemas and component schemas, compiled. Every schema reachable
/// from them is one [`Node`]; a reference is the index of the node of what it points at, so a
/// recursive schema is a cycle of indices, walked only as deep as the body goes.
struct Schemas {
    nodes: Vec<Node>,
    /// Route pattern, then its operations' methods (in lower case, as the document writes them)
    /// with their body schemas.
    requests: HashMap<Box<str>, Vec<(Box<str>, Id)>>,
    components: HashMap<Box<str>, Id>,
}

/// One schema, its `$ref`s followed (as far as [`resolve`] follows them).
enum Node {
    /// `oneOf` (else `anyOf`): the value is fitted to the variant its discriminator names, else
    /// to each variant in turn; the schema's other keywords are not read.
    Union { variants: Box<[Id]>, discriminator: Option<Discriminator> },
    /// Any other schema: the types it allows, what an object must be, what an array's items are.
    Plain { types: Types, object: Object, items: Option<Id> },
}

/// A union's discriminator: the field naming the variant, and each tag's variant (those whose
/// mapping resolves; a tag mapped nowhere falls back to trying each variant).
struct Discriminator {
    property: Box<str>,
    mapping: Names<Id>,
}

/// What an object must be under a plain schema.
enum Object {
    /// A part of its `allOf` does not allow an object: not this schema.
    Refused,
    /// No property named and no rule for others (a free-form object): any fields.
    Free,
    /// Its properties (its `allOf` parts' merged, a later part's winning), the properties whose
    /// schema allows one value only (a union variant's tag) with that value, and the rule for
    /// any other field.
    Named { properties: Names<Id>, tags: Box<[(Box<str>, Value)]>, others: Others },
}

/// `additionalProperties`: what a field the properties do not name may be.
enum Others {
    /// `true`: anything.
    Any,
    /// A schema (a map's values).
    Schema(Id),
    /// Absent or `false`: an unknown field.
    Refused,
}

/// A table from names to `T`, sorted by name for a binary search.
struct Names<T>(Box<[(Box<str>, T)]>);

impl<T: Copy> Names<T> {
    fn get(&self, name: &str) -> Option<T> {
        let found = self.0.binary_search_by(|(key, _)| key.as_ref().cmp(name)).ok()?;
        self.0.get(found).map(|(_, value)| *value)
    }
}

/// The JSON types a schema's `type` allows, one bit each; a value's own type is one of them.
/// An integer fits `"number"` too.
#[derive(Clone, Copy)]
struct Types(u8);

impl Types {
    const NULL: u8 = 1;
    const BOOLEAN: u8 = 2;
    const INTEGER: u8 = 4;
    const NUMBER: u8 = 8;
    const STRING: u8 = 16;
    const ARRAY: u8 = 32;
    const OBJECT: u8 = 64;
    /// A schema naming no type allows any.
    const ANY: Types = Types(127);

    fn of_schema(schema: &Value) -> Types {
        let allowed = |name: &Value| match name.as_str() {
            Some("null") => Self::NULL,
            Some("boolean") => Self::BOOLEAN,
            Some("integer") => Self::INTEGER,
            Some("number") => Self::INTEGER | Self::NUMBER,
            Some("string") => Self::STRING,
            Some("array") => Self::ARRAY,
            Some("object") => Self::OBJECT,
            _ => 0,
        };
        match schema.get("type") {
            None => Self::ANY,
            Some(Value::Array(names)) => Types(names.iter().fold(0, |types, name| types | allowed(name))),
            Some(single) => Types(allowed(single)),
        }
    }

    fn of_value(value: &Value) -> u8 {
        match value {
            Value::Null => Self::NULL,
            Value::Bool(_) => Self::BOOLEAN,
            Value::Number(number) if number.is_i64() || number.is_u64() => Self::INTEGER,
            Value::Number(_) => Self::NUMBER,
            Value::String(_) => Self::STRING,
            Value::Array(_) => Self::ARRAY,
            Value::Object(_) => Self::OBJECT,
        }
    }

    fn allow(self, types: u8) -> bool {
        self.0 & types != 0
    }
}

/// The component schema `name` of `document`.
fn component<'d>(document: &'d Value, name: &str) -> Option<&'d Value> {
    document.get("components")?.get("schemas")?.get(name)
}

/// What a local reference (`#/components/schemas/BattleSetup`) points at: a component schema by
/// name, any other pointer followed as a JSON Pointer.
fn target<'d>(document: &'d Value, reference: &str) -> Option<&'d Value> {
    let pointer = reference.strip_prefix('#')?;
    match pointer.strip_prefix("/components/schemas/") {
        Some(name) if !name.contains(['/', '~']) => component(document, name),
        _ => document.pointer(pointer),
    }
}

/// `schema` with its `$ref`s followed, 32 at most (a cycle of references ends there), up to one
/// that points nowhere.
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

/// Compiles a document's schemas into [`Node`]s: each schema once (by where it sits in the
/// document, after its references are followed), from a work list, so a recursive
/// schema needs no recursion here.
struct Compiler<'d> {
    document: &'d Value,
    nodes: Vec<Node>,
    /// A resolved schema's address in the document, to its node.
    ids: HashMap<*const Value, Id>,
    queue: Vec<(Id, &'d Value)>,
}

impl<'d> Compiler<'d> {
    /// The node of `schema` (of what its references lead to), queued to be compiled if new.
    fn id(&mut self, schema: &'d Value) -> Id {
        let schema = resolve(self.document, schema);
        if let Some(id) = self.ids.get(&std::ptr::from_ref(schema)) {
            return *id;
        }
        let id = self.nodes.len();
        self.nodes.push(Node::Plain { types: Types::ANY, object: Object::Free, items: None });
        self.ids.insert(std::ptr::from_ref(schema), id);
        self.queue.push((id, schema));
        id
    }

    fn run(&mut self) {
        while let Some((id, schema)) = self.queue.pop() {
            let node = self.node(schema);
            if let Some(slot) = self.nodes.get_mut(id) {
                *slot = node;
            }
        }
    }

    fn node(&mut self, schema: &'d Value) -> Node {
        if let Some(variants) = schema.get("oneOf").or_else(|| schema.get("anyOf")).and_then(Value::as_array) {
            let variants = variants.iter().map(|variant| self.id(variant)).collect();
            let discriminator = self.discriminator(schema);
            return Node::Union { variants, discriminator };
        }
        let object = self.object(schema);
        let items = schema.get("items").map(|item| self.id(item));
        Node::Plain { types: Types::of_schema(schema), object, items }
    }

    fn discriminator(&mut self, schema: &'d Value) -> Option<Discriminator> {
        let discriminator = schema.get("discriminator")?;
        let property = discriminator.get("propertyName")?.as_str()?.into();
        let mut mapping = Vec::new();
        for (tag, reference) in discriminator.get("mapping").and_then(Value::as_object).into_iter().flatten() {
            if let Some(variant) = reference.as_str().and_then(|reference| target(self.document, reference)) {
                mapping.push((tag.as_str().into(), self.id(variant)));
            }
        }
        Some(Discriminator { property, mapping: names(mapping) })
    }

    fn object(&mut self, schema: &'d Value) -> Object {
        let document = self.document;
        let parts: Vec<&Value> = schema
            .get("allOf")
            .and_then(Value::as_array)
            .map(|parts| parts.iter().map(|part| resolve(document, part)).collect())
            .unwrap_or_else(|| vec![schema]);
        if !parts.iter().all(|part| Types::of_schema(part).allow(Types::OBJECT)) {
            return Object::Refused;
        }
        // A later part's property wins, as when the parts are merged.
        let mut merged: BTreeMap<&str, &Value> = BTreeMap::new();
        for table in parts.iter().filter_map(|part| part.get("properties").and_then(Value::as_object)) {
            merged.extend(table.iter().map(|(name, property)| (name.as_str(), property)));
        }
        let others = schema.get("additionalProperties");
        if merged.is_empty() && others.is_none() {
            return Object::Free;
        }
        let tags = merged
            .iter()
            .filter_map(|(name, property)| {
                let allowed = resolve(document, property).get("enum").and_then(Value::as_array)?;
                match allowed.as_slice() {
                    [only] => Some(((*name).into(), only.clone())),
                    _ => None,
                }
            })
            .collect();
        let properties = merged.into_iter().map(|(name, property)| (name.into(), self.id(property))).collect();
        let others = match others {
            Some(Value::Bool(true)) => Others::Any,
            Some(other @ Value::Object(_)) => Others::Schema(self.id(other)),
            _ => Others::Refused,
        };
        Object::Named { properties: names(properties), tags, others }
    }
}

/// `entries` as a [`Names`] table.
fn names<T>(mut entries: Vec<(Box<str>, T)>) -> Names<T> {
    entries.sort_by(|(a, _), (b, _)| a.cmp(b));
    Names(entries.into_boxed_slice())
}

impl Schemas {
    /// Every request body schema of `document`'s paths and every component schema, compiled.
    fn compile(document: &Value) -> Schemas {
        let mut compiler = Compiler { document, nodes: Vec::new(), ids: HashMap::new(), queue: Vec::new() };
        let mut requests: HashMap<Box<str>, Vec<(Box<str>, Id)>> = HashMap::new();
        for (pattern, item) in document.get("paths").and_then(Value::as_object).into_iter().flatten() {
            for (method, operation) in item.as_object().into_iter().flatten() {
                // The method is matched in lower case: an operation under another spelling is
                // never found, and is left out.
                if *method != method.to_ascii_lowercase() {
                    continue;
                }
                if let Some(schema) = operation.pointer("/requestBody/content/application~1json/schema") {
                    let id = compiler.id(schema);
                    requests.entry(pattern.as_str().into()).or_default().push((method.as_str().into(), id));
                }
            }
        }
        let mut components = HashMap::new();
        for (name, schema) in document.pointer("/components/schemas").and_then(Value::as_object).into_iter().flatten() {
            components.insert(name.as_str().into(), compiler.id(schema));
        }
        compiler.run();
        Schemas { nodes: compiler.nodes, requests, components }
    }

    fn in_request(&self, method: &str, pattern: &str, body: &Value) -> Option<String> {
        let (_, schema) = self.requests.get(pattern)?.iter().find(|(name, _)| name.eq_ignore_ascii_case(method))?;
        self.first_unknown(body, *schema, &At::Root)
    }

    fn in_component(&self, name: &str, body: &Value) -> Option<String> {
        self.first_unknown(body, *self.components.get(name)?, &At::Root)
    }

    /// The pointer of the first unknown field of `value` under `schema`, `at` being its own.
    fn first_unknown(&self, value: &Value, schema: Id, at: &At) -> Option<String> {
        match self.fit(value, schema, at) {
            Fit::Unknown(pointer) => Some(pointer),
            Fit::Named | Fit::Other => None,
        }
    }

    fn fit(&self, value: &Value, schema: Id, at: &At) -> Fit {
        match self.nodes.get(schema) {
            Some(Node::Union { variants, discriminator }) => {
                if let Some(chosen) = discriminator.as_ref().and_then(|discriminator| discriminator.variant(value)) {
                    return self.fit(value, chosen, at);
                }
                // The variant the value fits; else what the deepest-reaching variant of its type
                // and tags found (the one it was most likely meant as).
                let mut best: Option<String> = None;
                for variant in variants {
                    match self.fit(value, *variant, at) {
                        Fit::Named => return Fit::Named,
                        Fit::Other => {}
                        Fit::Unknown(found) => {
                            if best.as_ref().is_none_or(|best| found.matches('/').count() > best.matches('/').count()) {
                                best = Some(found);
                            }
                        }
                    }
                }
                best.map_or(Fit::Other, Fit::Unknown)
            }
            Some(Node::Plain { types, object, items }) => {
                if !types.allow(Types::of_value(value)) {
                    return Fit::Other;
                }
                match value {
                    Value::Object(fields) => self.fit_object(fields, object, at),
                    Value::Array(values) => {
                        let Some(item) = items else { return Fit::Named };
                        values
                            .iter()
                            .enumerate()
                            .find_map(|(index, value)| self.first_unknown(value, *item, &At::Item(at, index)))
                            .map_or(Fit::Named, Fit::Unknown)
                    }
                    _ => Fit::Named,
                }
            }
            None => Fit::Named,
        }
    }

    fn fit_object(&self, fields: &Map<String, Value>, object: &Object, at: &At) -> Fit {
        let (properties, tags, others) = match object {
            Object::Refused => return Fit::Other,
            Object::Free => return Fit::Named,
            Object::Named { properties, tags, others } => (properties, tags, others),
        };
        // A tag of another variant (`"by": "square"` against the `base` variant): a string the
        // body gives where the schema allows one other value only.
        if tags
            .iter()
            .any(|(name, only)| fields.get(name.as_ref()).is_some_and(|given| given.is_string() && given != only))
        {
            return Fit::Other;
        }
        for (key, field) in fields {
            let here = At::Field(at, key);
            let found = match (properties.get(key), others) {
                (Some(property), _) => self.first_unknown(field, property, &here),
                (None, Others::Any) => None,
                (None, Others::Schema(other)) => self.first_unknown(field, *other, &here),
                (None, Others::Refused) => Some(here.pointer()),
            };
            if let Some(found) = found {
                return Fit::Unknown(found);
            }
        }
        Fit::Named
    }
}

impl Discriminator {
    /// The variant `value`'s tag names, if it names one the mapping knows.
    fn variant(&self, value: &Value) -> Option<Id> {
        self.mapping.get(value.get(self.property.as_ref())?.as_str()?)
    }
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

#[cfg(test)]
mod document_walk;

#[cfg(test)]
#[path = "../benches/load/setups.rs"]
mod setups;

#[cfg(test)]
mod tests {
    use std::sync::OnceLock;

    use rand_chacha::ChaCha8Rng;
    use rand_core::{RngCore, SeedableRng};
    use serde_json::{json, Value};

    use super::{document_walk, Schemas};

    /// The document the oracle walks: the one start-up installs, built here once more.
    fn document() -> &'static Value {
        static DOCUMENT: OnceLock<Value> = OnceLock::new();
        DOCUMENT.get_or_init(crate::openapi::spec_value)
    }

    /// The installed check's compiled schemas (compiled from its own build of the document).
    fn compiled() -> &'static Schemas {
        super::install(crate::openapi::spec_value);
        super::schemas().expect("the document's source is installed")
    }

    /// The load test's coalition set-up, with a fixed deadline.
    fn coalition() -> Value {
        super::setups::coalition("2026-12-01T00:00:00Z")
    }

    /// `(method, route pattern, body)`: the load test's five set-ups (the coalition one with and
    /// without the `ruleset` the route names in place), its roll, and every request example of
    /// the document.
    fn corpus() -> Vec<(String, String, Value)> {
        let mut bodies = Vec::new();
        let mut named = coalition();
        named["ruleset"] = json!("coalition");
        bodies.push(("POST".to_string(), "/v1/battles".to_string(), coalition()));
        for (_, setup) in super::setups::all(named) {
            bodies.push(("POST".to_string(), "/v1/battles".to_string(), setup));
        }
        bodies.push((
            "POST".to_string(),
            "/v1/streams/{stream}/rolls".to_string(),
            json!({"expression": "1d6", "purpose": "load"}),
        ));
        for (pattern, item) in document()["paths"].as_object().expect("paths") {
            for (method, operation) in item.as_object().into_iter().flatten() {
                let Some(body) = operation.pointer("/requestBody/content/application~1json") else { continue };
                let examples = body.get("example").into_iter().chain(
                    body.get("examples")
                        .and_then(Value::as_object)
                        .into_iter()
                        .flatten()
                        .map(|(_, named)| &named["value"]),
                );
                for example in examples {
                    bodies.push((method.to_ascii_uppercase(), pattern.clone(), example.clone()));
                }
            }
        }
        bodies
    }

    /// Every pointer inside `value` (`""` for the value itself), with whether it is an object.
    fn pointers(value: &Value, at: &str, out: &mut Vec<(String, bool)>) {
        out.push((at.to_string(), value.is_object()));
        match value {
            Value::Object(fields) => {
                for (key, field) in fields {
                    pointers(field, &format!("{at}/{}", key.replace('~', "~0").replace('/', "~1")), out);
                }
            }
            Value::Array(items) => {
                for (index, item) in items.iter().enumerate() {
                    pointers(item, &format!("{at}/{index}"), out);
                }
            }
            _ => {}
        }
    }

    #[test]
    fn a_typo_deep_in_a_coalition_set_up_is_found_and_a_right_one_passes() {
        super::install(crate::openapi::spec_value);
        let example = document()
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

    /// The load test's set-ups, its roll and every request example: as they are, and with a
    /// stray field in each of their objects in turn, the compiled walk reports what the
    /// document walk reports (the same pointer, or none).
    #[test]
    fn the_compiled_walk_reports_what_the_document_walk_does_for_a_stray_field_in_every_object() {
        let (document, compiled) = (document(), compiled());
        let (mut tried, mut reported, mut differ) = (0, 0, Vec::new());
        for (method, pattern, body) in corpus() {
            let mut objects = Vec::new();
            pointers(&body, "", &mut objects);
            let strays = objects.into_iter().filter(|(_, object)| *object).map(|(at, _)| Some(at));
            for stray in std::iter::once(None).chain(strays) {
                let mut body = body.clone();
                if let Some(Value::Object(fields)) = stray.as_ref().and_then(|at| body.pointer_mut(at)) {
                    fields.insert("contingnecy".into(), json!(true));
                }
                let expected = document_walk::in_request(document, &method, &pattern, &body);
                let found = compiled.in_request(&method, &pattern, &body);
                tried += 1;
                reported += usize::from(found.is_some());
                if found != expected {
                    differ.push(format!(
                        "{method} {pattern} stray at {stray:?}: {found:?}, the document walk {expected:?}"
                    ));
                }
            }
        }
        assert!(differ.is_empty(), "{} of {tried} bodies differ:\n{}", differ.len(), differ.join("\n"));
        // Not a vacuous agreement: most stray fields are refused (an example's own free-form
        // fields, a map's values and a note's free text, take them).
        assert!(tried > 300 && reported * 4 > tried * 3, "{reported} of {tried} stray fields reported");
    }

    /// The same bodies against every component schema of the document, as `in_component`
    /// checks a ruleset's command: every union, discriminator, `allOf` and map the document has
    /// is walked by a body of some shape.
    #[test]
    fn the_compiled_walk_reports_what_the_document_walk_does_against_every_component_schema() {
        let (document, compiled) = (document(), compiled());
        let names: Vec<&String> = document["components"]["schemas"].as_object().expect("components").keys().collect();
        assert!(names.len() > 500, "{} component schemas", names.len());
        let (mut tried, mut reported, mut differ) = (0, 0, Vec::new());
        for (_, _, body) in corpus() {
            for name in &names {
                let expected = document_walk::in_component(document, name, &body);
                let found = compiled.in_component(name, &body);
                tried += 1;
                reported += usize::from(found.is_some());
                if found != expected {
                    differ.push(format!("{name}: {found:?}, the document walk {expected:?} for {body}"));
                }
            }
        }
        assert!(differ.is_empty(), "{} of {tried} walks differ:\n{}", differ.len(), differ.join("\n"));
        assert!(reported > 100, "only {reported} of {tried} walks found an unknown field");
        assert_eq!(compiled.in_component("NoSuchSchema", &json!({"a": 1})), None);
    }

    /// Strings the mutations put where a string was: every union tag the document names (so a
    /// variant's tag is changed to another variant's) and a few of no schema's.
    fn tags(document: &Value, out: &mut Vec<String>) {
        match document {
            Value::Object(fields) => {
                if let Some([Value::String(only)]) = fields.get("enum").and_then(Value::as_array).map(Vec::as_slice) {
                    out.push(only.clone());
                }
                fields.values().for_each(|field| tags(field, out));
            }
            Value::Array(items) => items.iter().for_each(|item| tags(item, out)),
            _ => {}
        }
    }

    /// One random change to `body`, at a random depth: a stray field (a known name of another
    /// place, or an unknown one, with a value of any type), a string swapped for a union tag, a
    /// value of another type, a field removed, an item added.
    fn mutate(body: &mut Value, random: &mut ChaCha8Rng, tags: &[String], donors: &[Value]) {
        let mut places = Vec::new();
        pointers(body, "", &mut places);
        let pick = |random: &mut ChaCha8Rng, len: usize| random.next_u32() as usize % len.max(1);
        let (at, _) = places[pick(random, places.len())].clone();
        let donor = &donors[pick(random, donors.len())];
        let mut parts = Vec::new();
        pointers(donor, "", &mut parts);
        let (part, _) = &parts[pick(random, parts.len())];
        let graft = donor.pointer(part).cloned().unwrap_or(Value::Null);
        let scalars = [json!(null), json!(true), json!(3), json!(-2), json!(1.5), json!("x"), json!([]), json!({})];
        let scalar = scalars[pick(random, scalars.len())].clone();
        let names = ["contingnecy", "kind", "type", "ruleset", "name", "id", "a/b~c", "by", "value"];
        let Some(place) = body.pointer_mut(&at) else { return };
        match (random.next_u32() % 6, place) {
            (0 | 1, Value::Object(fields)) => {
                let name = match part
                    .rsplit('/')
                    .next()
                    .filter(|name| !name.is_empty() && random.next_u32().is_multiple_of(2))
                {
                    Some(name) => name.replace("~1", "/").replace("~0", "~"),
                    None => names[pick(random, names.len())].to_string(),
                };
                fields.insert(name, if random.next_u32().is_multiple_of(2) { graft } else { scalar });
            }
            (2, place @ Value::String(_)) => *place = json!(tags[pick(random, tags.len())]),
            (3, Value::Object(fields)) if !fields.is_empty() => {
                let key = fields.keys().nth(pick(random, fields.len())).cloned().unwrap_or_default();
                fields.shift_remove(&key);
            }
            (4, Value::Array(items)) => items.push(if random.next_u32().is_multiple_of(2) { graft } else { scalar }),
            (_, place) => *place = if random.next_u32().is_multiple_of(2) { graft } else { scalar },
        }
    }

    /// Property: on bodies mutated at random depths (one to four changes each, from a fixed
    /// seed), the compiled walk reports what the document walk reports, for the body's route and
    /// for a component schema picked at random.
    #[test]
    fn on_randomly_mutated_bodies_the_compiled_walk_reports_what_the_document_walk_does() {
        let (document, compiled) = (document(), compiled());
        let mut tag_values = Vec::new();
        tags(document, &mut tag_values);
        let corpus = corpus();
        let donors: Vec<Value> = corpus.iter().map(|(_, _, body)| body.clone()).collect();
        let names: Vec<&String> = document["components"]["schemas"].as_object().expect("components").keys().collect();
        let mut random = ChaCha8Rng::seed_from_u64(293);
        let (mut reported, mut differ) = (0, Vec::new());
        let rounds = 4000;
        for _ in 0..rounds {
            let (method, pattern, body) = &corpus[random.next_u32() as usize % corpus.len()];
            let mut body = body.clone();
            for _ in 0..=random.next_u32() % 4 {
                mutate(&mut body, &mut random, &tag_values, &donors);
            }
            let expected = document_walk::in_request(document, method, pattern, &body);
            let found = compiled.in_request(method, pattern, &body);
            reported += usize::from(found.is_some());
            if found != expected {
                differ.push(format!("{method} {pattern}: {found:?}, the document walk {expected:?} for {body}"));
            }
            let name = names[random.next_u32() as usize % names.len()];
            let expected = document_walk::in_component(document, name, &body);
            let found = compiled.in_component(name, &body);
            if found != expected {
                differ.push(format!("{name}: {found:?}, the document walk {expected:?} for {body}"));
            }
        }
        assert!(differ.is_empty(), "{} walks differ:\n{}", differ.len(), differ.join("\n"));
        assert!(reported > rounds / 5, "only {reported} of {rounds} mutated bodies had an unknown field reported");
    }

    /// A document of the cases the service's own may not have (yet), each body's pointer stated
    /// and the document walk held to the same.
    #[test]
    fn references_unions_maps_and_types_are_compiled_as_the_document_reads() {
        let document = json!({
            "paths": {
                "/tree": {"post": {"requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Tree"}}}}}},
                "/loop": {"post": {"requestBody": {"content": {"application/json": {"schema": {"$ref": "#/components/schemas/Loop"}}}}}},
                "/odd": {"Post": {"requestBody": {"content": {"application/json": {"schema": {"type": "object", "properties": {}}}}}}},
            },
            "components": {"schemas": {
                // Recursive through its items.
                "Tree": {"type": "object", "properties": {
                    "name": {"type": "string"},
                    "children": {"type": "array", "items": {"$ref": "#/components/schemas/Tree"}}}},
                // A cycle of references: followed 32 times, then read as it stands (no keyword).
                "Loop": {"$ref": "#/components/schemas/Loop2"},
                "Loop2": {"$ref": "#/components/schemas/Loop"},
                // A reference to nowhere: the schema is read as it stands, its siblings with it.
                "Dangling": {"$ref": "#/nowhere", "type": "object", "properties": {"a": {}}},
                // A reference that is a JSON Pointer into another schema.
                "Inner": {"$ref": "#/components/schemas/Outer/properties/inner"},
                "Outer": {"type": "object", "properties": {"inner": {"type": "object", "properties": {"x": {"type": "integer"}}}}},
                // Parts merged, the later's property winning (here: no tag any more).
                "Merged": {"type": "object", "allOf": [
                    {"properties": {"by": {"type": "string", "enum": ["base"]}, "k": {}}},
                    {"$ref": "#/components/schemas/ByAny"}],
                    "properties": {"ignored": {}}},
                "ByAny": {"properties": {"by": {"type": "string"}}},
                "Tagged": {"type": "object", "allOf": [
                    {"$ref": "#/components/schemas/ByAny"},
                    {"properties": {"by": {"$ref": "#/components/schemas/Base"}, "k": {}}}]},
                "Base": {"type": "string", "enum": ["base"]},
                "NotAnObjectPart": {"allOf": [{"type": "string"}], "properties": {"a": {}}},
                // A map's values, free-form objects, anything goes.
                "Map": {"type": "object", "additionalProperties": {"$ref": "#/components/schemas/Leaf"}},
                "Leaf": {"type": "object", "properties": {"v": {"type": "integer"}}},
                "Free": {"type": "object"},
                "Open": {"type": "object", "properties": {"a": {}}, "additionalProperties": true},
                "Closed": {"type": "object", "properties": {"a": {}}, "additionalProperties": false},
                "NoProperties": {"type": "object", "additionalProperties": false},
                // Types: an integer is a number too; a float is not an integer.
                "Numbers": {"oneOf": [{"type": ["integer", "null"]}, {"type": "object", "properties": {"n": {"type": "number"}}}]},
                // A discriminated union; a tag its mapping misses falls back to each variant.
                "Shape": {"oneOf": [{"$ref": "#/components/schemas/Square"}, {"$ref": "#/components/schemas/Circle"}],
                          "discriminator": {"propertyName": "kind", "mapping": {
                              "square": "#/components/schemas/Square", "circle": "#/components/schemas/Circle",
                              "lost": "#/components/schemas/Missing"}}},
                "Square": {"type": "object", "properties": {"kind": {"type": "string", "enum": ["square"]}, "side": {"type": "object", "properties": {"l": {}}}}},
                "Circle": {"type": "object", "properties": {"kind": {"type": "string", "enum": ["circle"]}, "r": {}, "deep": {"type": "object", "properties": {"d": {"type": "object", "properties": {}, "additionalProperties": false}}}}},
                // An untagged union: the deepest reaching variant's unknown field is reported.
                "Either": {"anyOf": [{"$ref": "#/components/schemas/Square"}, {"$ref": "#/components/schemas/Circle"}]},
                "Keys": {"type": "object", "properties": {"a/b~c": {"type": "object", "properties": {}, "additionalProperties": false}}},
            }},
        });
        let compiled = Schemas::compile(&document);
        let cases = [
            ("Tree", json!({"name": "r", "children": [{"name": "a", "children": [{"name": "b"}]}]}), None),
            (
                "Tree",
                json!({"name": "r", "children": [{"children": [{}, {"name": "b", "nmae": 1}]}]}),
                Some("/children/0/children/1/nmae"),
            ),
            ("Loop", json!({"anything": [1, {"at": "all"}]}), None),
            ("Dangling", json!({"a": 1, "b": 2}), Some("/b")),
            ("Inner", json!({"x": 1, "y": 2}), Some("/y")),
            ("Merged", json!({"by": "other", "k": 1, "ignored": 2}), Some("/ignored")),
            ("Merged", json!({"by": "other", "k": 1}), None),
            ("Tagged", json!({"by": "other", "stray": 1}), None),
            ("Tagged", json!({"by": "base", "stray": 1}), Some("/stray")),
            ("Tagged", json!({"by": 7, "stray": 1}), Some("/stray")),
            ("NotAnObjectPart", json!({"b": 1}), None),
            ("Map", json!({"one": {"v": 1}, "two": {"v": 2, "w": 3}}), Some("/two/w")),
            ("Map", json!({"one": {"v": 1}, "two": 3}), None),
            ("Free", json!({"any": {"thing": 1}}), None),
            ("Open", json!({"b": {"c": 1}}), None),
            ("Closed", json!({"a": {"c": 1}, "b": 1}), Some("/b")),
            ("NoProperties", json!({"b": 1}), Some("/b")),
            ("Numbers", json!(3), None),
            ("Numbers", json!(1.5), None),
            ("Numbers", json!({"n": 3, "m": 1}), Some("/m")),
            ("Shape", json!({"kind": "square", "side": {"l": 1, "w": 2}}), Some("/side/w")),
            ("Shape", json!({"kind": "circle", "side": {"w": 2}}), Some("/side")),
            ("Shape", json!({"kind": "lost", "r": 1, "deep": {"d": {"x": 1}}}), None),
            ("Shape", json!({"r": 1, "deep": {"d": {"x": 1}}}), Some("/deep/d/x")),
            ("Either", json!({"deep": {"d": {"x": 1}}, "side": {"w": 1}}), Some("/deep/d/x")),
            ("Either", json!({"side": {"w": 1}, "deep": {"d": {"x": 1}}}), Some("/side/w")),
            // A tie: the first variant's wins.
            ("Either", json!({"r": 1, "side": 1}), Some("/r")),
            ("Either", json!({"kind": "square", "deep": {"d": {"x": 1}}}), Some("/deep")),
            ("Either", json!([{"kind": "square"}]), None),
            ("Keys", json!({"a/b~c": {"z": 1}}), Some("/a~1b~0c/z")),
            ("Square", json!({"kind": "circle", "z": 1}), None),
            ("Circle", json!({"kind": "circle", "r": 1, "z": [1]}), Some("/z")),
        ];
        for (name, body, pointer) in cases {
            let found = compiled.in_component(name, &body);
            assert_eq!(found.as_deref(), pointer, "{name} {body}");
            assert_eq!(found, document_walk::in_component(&document, name, &body), "{name} {body}");
        }
        let tree = json!({"name": "r", "children": [{"name": "a", "x": 1}]});
        assert_eq!(compiled.in_request("POST", "/tree", &tree).as_deref(), Some("/children/0/x"));
        assert_eq!(compiled.in_request("post", "/tree", &tree).as_deref(), Some("/children/0/x"));
        assert_eq!(compiled.in_request("POST", "/loop", &tree), None);
        // A method the document spells in other than lower case is never found, as before.
        assert_eq!(compiled.in_request("POST", "/odd", &tree), None);
        assert_eq!(document_walk::in_request(&document, "POST", "/odd", &tree), None);
        assert_eq!(compiled.in_request("GET", "/tree", &tree), None);
        assert_eq!(compiled.in_request("POST", "/nowhere", &tree), None);
    }
}
