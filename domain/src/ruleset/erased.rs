//! The type-erased face of a ruleset: JSON commands in, JSON events out, state behind `dyn`.
//!
//! The typed core stays typed: a ruleset implements [`Ruleset`] with its own command, event,
//! state and view types, and [`Registered`] wraps it into an [`AnyRuleset`] by a blanket
//! implementation, the way `erased-serde` puts a `dyn` face on serde's generic traits. The
//! service, the read models and replay verification only ever hold `&dyn AnyRuleset` and
//! [`AnyState`].

use std::{any::Any, fmt, marker::PhantomData, sync::Arc};

use serde::Serialize;
use serde_json::Value;
use utoipa::{
    openapi::{RefOr, Schema},
    PartialSchema, ToSchema,
};

use super::{Ruleset, StreamKind, Summary, TacticalOutcome, EVENT_SCHEMA};
use crate::{dice::JudgeRoll, viewer::Viewer, Actor, Context, DiceCursor, RuleError};

/// Folded state of one stream, of whichever ruleset.
pub trait AnyState: Any + Send + Sync + fmt::Debug {
    /// The state as `Any`, to downcast to the ruleset's own type.
    fn as_any(&self) -> &dyn Any;
    /// The state as `Any`, mutably.
    fn as_any_mut(&mut self) -> &mut dyn Any;
    /// A copy, to fold on while readers keep the old one.
    fn clone_arc(&self) -> Arc<dyn AnyState>;
    /// Whether `other` is the same state (a rebuilt read model equals the live one).
    fn same_as(&self, other: &dyn AnyState) -> bool;
}

impl<T: Any + Send + Sync + fmt::Debug + Clone + PartialEq> AnyState for T {
    fn as_any(&self) -> &dyn Any {
        self
    }

    fn as_any_mut(&mut self) -> &mut dyn Any {
        self
    }

    fn clone_arc(&self) -> Arc<dyn AnyState> {
        Arc::new(self.clone())
    }

    fn same_as(&self, other: &dyn AnyState) -> bool {
        other.as_any().downcast_ref::<T>() == Some(self)
    }
}

/// Why a command was not decided.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum Refusal {
    /// The command is not one of the ruleset's commands, or not well formed (400).
    #[error("{0}")]
    Malformed(String),
    /// The rules refuse it (422, or 403 when the actor lacks the authority).
    #[error(transparent)]
    Rule(#[from] RuleError),
}

/// A field of a request that does not fit its schema.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FieldMismatch {
    /// A JSON Pointer (RFC 6901) to the field (`""` for the whole value).
    pub pointer: String,
    /// What is wrong with it.
    pub detail: String,
}

/// Deserialize `value` as `T`, or say which field does not fit and why.
///
/// Most bodies fit: they are decoded plainly, and the path to the field is tracked only when
/// one does not (tracking it cost a command about 1% of the server's CPU under load; the same
/// decoder fails the same way twice, so the answer names the same field).
pub fn decode<T: serde::de::DeserializeOwned>(value: &Value) -> Result<T, FieldMismatch> {
    if let Ok(decoded) = T::deserialize(value) {
        return Ok(decoded);
    }
    serde_path_to_error::deserialize(value).map_err(|error| {
        let mut pointer = String::new();
        for segment in error.path().iter() {
            let token = match segment {
                serde_path_to_error::Segment::Seq { index } => index.to_string(),
                serde_path_to_error::Segment::Map { key } => key.clone(),
                serde_path_to_error::Segment::Enum { variant } => variant.clone(),
                serde_path_to_error::Segment::Unknown => continue,
            };
            pointer.push('/');
            pointer.push_str(&token.replace('~', "~0").replace('/', "~1"));
        }
        let (pointer, detail) = in_api_words(&pointer, &error.into_inner().to_string());
        FieldMismatch { pointer, detail }
    })
}

/// What serde says of a field that does not fit, in the API's words (issue 26 item 9): the
/// Rust types it names become what the field takes (`expected u8` → `expected an integer from
/// 0 to 255`), and a missing or unknown field is pointed at itself, not at the object that
/// lacks or holds it (serde reports the object's path). Returns the pointer and the message.
pub fn in_api_words(pointer: &str, message: &str) -> (String, String) {
    let named = |prefix: &str| {
        message.strip_prefix(prefix).and_then(|rest| rest.split('`').next()).map(|name| name.to_string())
    };
    let field = |name: &str| format!("{pointer}/{}", name.replace('~', "~0").replace('/', "~1"));
    if let Some(name) = named("missing field `") {
        return (field(&name), format!("`{name}` is required and missing"));
    }
    if let Some(name) = named("unknown field `") {
        let expected = message.split_once(", expected ").map(|(_, rest)| rest).unwrap_or_default();
        let expected = expected.strip_prefix("one of ").unwrap_or(expected);
        let detail = if expected.is_empty() || expected.starts_with("there are no fields") {
            format!("unknown field `{name}`: no such field here (check its spelling)")
        } else {
            format!("unknown field `{name}`: no such field here (check its spelling); the fields are {expected}")
        };
        // serde_path_to_error's path already ends at the unknown field.
        let pointer = if pointer.ends_with(&format!("/{}", name.replace('~', "~0").replace('/', "~1"))) {
            pointer.to_string()
        } else {
            field(&name)
        };
        return (pointer, detail);
    }
    let mut text = message.to_string();
    for (rust, words) in TYPE_WORDS {
        text = replace_type(&text, rust, words);
    }
    (pointer.to_string(), text)
}

/// Rust's names of the types a request's fields have, and what the API calls them.
const TYPE_WORDS: [(&str, &str); 16] = [
    ("u8", "an integer from 0 to 255"),
    ("u16", "an integer from 0 to 65535"),
    ("u32", "an integer from 0 to 4294967295"),
    ("u64", "an integer from 0 to 18446744073709551615"),
    ("usize", "an integer from 0 to 18446744073709551615"),
    ("i8", "an integer from -128 to 127"),
    ("i16", "an integer from -32768 to 32767"),
    ("i32", "an integer from -2147483648 to 2147483647"),
    ("i64", "an integer from -9223372036854775808 to 9223372036854775807"),
    ("f32", "a number"),
    ("f64", "a number"),
    ("a sequence", "an array"),
    ("a map", "an object"),
    ("unit", "null"),
    ("a borrowed string", "a string"),
    ("a character", "a one-character string"),
];

/// `text` with `expected <rust>` (a whole word) said as `expected <words>`.
fn replace_type(text: &str, rust: &str, words: &str) -> String {
    let needle = format!("expected {rust}");
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find(&needle) {
        let after = &rest[at + needle.len()..];
        let whole = after.chars().next().is_none_or(|next| !next.is_alphanumeric() && next != '_');
        out.push_str(&rest[..at]);
        out.push_str(if whole { "expected " } else { &needle });
        if whole {
            out.push_str(words);
        }
        rest = after;
    }
    out.push_str(rest);
    // serde's "struct X" and "internally tagged enum X": an object.
    for (rust, words) in [
        ("expected struct ", "expected an object: "),
        ("expected internally tagged enum ", "expected an object with its tag, of "),
    ] {
        out = out.replace(rust, words);
    }
    out
}

#[cfg(test)]
mod words_tests {
    use super::in_api_words;

    #[test]
    fn rust_types_become_the_api_words_and_missing_fields_are_pointed_at() {
        let (pointer, detail) = in_api_words("/bonus", "invalid value: integer `300`, expected u8");
        assert_eq!(
            (pointer.as_str(), detail.as_str()),
            ("/bonus", "invalid value: integer `300`, expected an integer from 0 to 255")
        );
        let (_, detail) = in_api_words("/x", "invalid type: string \"a\", expected f64");
        assert_eq!(detail, "invalid type: string \"a\", expected a number");
        let (_, detail) = in_api_words("/x", "invalid type: string \"a\", expected u8s");
        assert!(detail.ends_with("expected u8s"), "{detail}");
        let (pointer, detail) = in_api_words("/armies/a", "missing field `troops`");
        assert_eq!((pointer.as_str(), detail.as_str()), ("/armies/a/troops", "`troops` is required and missing"));
        let (pointer, detail) = in_api_words("", "unknown field `contingnecy`, expected `a` or `b`");
        assert_eq!(pointer, "/contingnecy");
        assert!(detail.contains("the fields are `a` or `b`"), "{detail}");
        let (pointer, detail) =
            in_api_words("/x/contingnecy", "unknown field `contingnecy`, expected one of `a`, `b`, `c`");
        assert_eq!(pointer, "/x/contingnecy");
        assert!(detail.ends_with("the fields are `a`, `b`, `c`"), "{detail}");
    }
}

impl fmt::Display for FieldMismatch {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.pointer.is_empty() {
            write!(f, "{}", self.detail)
        } else {
            write!(f, "`{}`: {}", self.pointer, self.detail)
        }
    }
}

/// A named schema and every schema it refers to, for the OpenAPI document (as JSON Schema).
#[derive(Debug, Clone)]
pub struct SchemaComponents {
    /// The component name of the schema itself.
    pub name: String,
    /// The schema and its dependencies, by component name.
    pub components: Vec<(String, Value)>,
}

impl SchemaComponents {
    /// The components of `T`.
    pub fn of<T: ToSchema>() -> Self {
        let name = T::name().to_string();
        let mut components: Vec<(String, RefOr<Schema>)> = vec![(name.clone(), <T as PartialSchema>::schema())];
        T::schemas(&mut components);
        let components = components
            .into_iter()
            .map(|(name, schema)| (name, serde_json::to_value(schema).unwrap_or_default()))
            .collect();
        Self { name, components }
    }

    /// The schema itself.
    pub fn schema_mut(&mut self) -> Option<&mut Value> {
        let name = self.name.clone();
        self.components.iter_mut().find(|(component, _)| *component == name).map(|(_, schema)| schema)
    }

    /// A component by name.
    pub fn component(&self, name: &str) -> Option<&Value> {
        self.components.iter().find(|(component, _)| component == name).map(|(_, schema)| schema)
    }
}

/// The schemas a ruleset contributes to the OpenAPI document.
#[derive(Debug, Clone)]
pub struct RulesetSchemas {
    /// The set-up body.
    pub setup: SchemaComponents,
    /// Its commands (a union tagged by `type`).
    pub command: SchemaComponents,
    /// Its events (a union tagged by `type`).
    pub event: SchemaComponents,
    /// Its view.
    pub view: SchemaComponents,
}

/// A ruleset as the service sees it.
pub trait AnyRuleset: Send + Sync {
    /// How clients name it (`coalition`).
    fn id(&self) -> &'static str;
    /// Its rules and version as recorded in every event (`coalition-battle@1`).
    fn rules(&self) -> &'static str;
    /// The kind of stream it keeps.
    fn kind(&self) -> StreamKind;
    /// Its name for people.
    fn title(&self) -> &'static str;
    /// Where its rules come from (`seed 000`).
    fn source(&self) -> &'static str;
    /// Its documentation, relative to the repository root.
    fn docs(&self) -> &'static str;
    /// Its error-code namespace.
    fn code_prefix(&self) -> &'static str;
    /// The file name of its picture, if it draws one.
    fn picture_name(&self) -> Option<&'static str>;
    /// Whether a campaign battle can be fought out under it.
    fn tactical(&self) -> bool;

    /// The state of a stream with no events.
    fn new_state(&self) -> Arc<dyn AnyState>;
    /// A folded state as JSON, for a snapshot of the read models (restored by `load_state`).
    fn save_state(&self, state: &dyn AnyState) -> Result<String, String>;
    /// A state `save_state` wrote.
    fn load_state(&self, saved: &str) -> Result<Arc<dyn AnyState>, String>;
    /// Apply one stored event (`event_type` and `schema` from its envelope, `data` its payload's
    /// JSON text, decoded straight into the ruleset's own event; older schemas are upcast
    /// first). An event that does not decode leaves the state as it was.
    fn evolve(&self, state: &mut dyn AnyState, event_type: &str, schema: u32, data: &str) -> Result<(), String>;
    /// The payload (JSON text) as the current schema has it, parsed (older schemas upcast).
    fn upcast(&self, event_type: &str, schema: u32, data: &str) -> Result<Value, String>;
    /// Decide a command (the ruleset's command JSON, tagged by `type`); returns event payloads,
    /// each tagged by its `type`.
    fn decide(&self, state: &dyn AnyState, command: &Value, ctx: &mut Context) -> Result<Vec<Value>, Refusal>;
    /// The stream's dice cursor.
    fn dice(&self, state: &dyn AnyState) -> Option<DiceCursor>;

    /// Parse a set-up body and make the command that opens the stream. The body is borrowed: a
    /// route keeps it, to name the field that does not fit when it is refused as malformed.
    fn set_up(&self, setup: &Value, seed_commitment: String) -> Result<Value, Refusal>;
    /// Where a set-up body does not fit the ruleset's set-up: the JSON Pointer of the first
    /// field that does not and why (`None` when it fits).
    fn setup_mismatch(&self, _setup: &Value) -> Option<FieldMismatch> {
        None
    }
    /// Where a command does not fit the ruleset's commands, as [`AnyRuleset::setup_mismatch`].
    fn command_mismatch(&self, _command: &Value) -> Option<FieldMismatch> {
        None
    }
    /// Whether `actor` may open a stream.
    fn may_set_up(&self, actor: &Actor) -> Result<(), RuleError>;
    /// Whether `command` may be sent to `POST …/actions` (its `type` is not a service command).
    fn is_action(&self, command: &Value) -> bool;
    /// Whether the service fills `command`'s `formula_salt` (see `Ruleset::SALTED_COMMANDS`).
    fn salted(&self, command: &Value) -> bool;
    /// The command that reveals the seed in force (with, for an early reveal, the commitment of
    /// the fresh seed that takes over).
    fn reveal_seed(&self, seed_hex: String, next_commitment: Option<String>) -> Option<Value>;
    /// The command that contributes entropy.
    fn contribute_entropy(&self, entropy: String) -> Option<Value>;
    /// The command that rolls for a judge.
    fn judge_roll(&self, roll: JudgeRoll) -> Value;

    /// The view of `state` (at `version`) for `viewer`, `current` deciding what is public now.
    fn view(
        &self,
        stream: &str,
        version: u64,
        state: &dyn AnyState,
        current: &dyn AnyState,
        viewer: &Viewer,
    ) -> Result<Value, String>;
    /// Hide from an event payload what `viewer` may not see.
    fn redact_event(&self, event: &mut Value, current: &dyn AnyState, viewer: &Viewer);
    /// Its listing line.
    fn summary(&self, state: &dyn AnyState) -> Option<Summary>;
    /// Its picture for `viewer`.
    fn picture(&self, stream: &str, version: u64, state: &dyn AnyState, viewer: &Viewer) -> Option<String>;
    /// Its players' sheets as `viewer` may see them, at `version` (`None`: it keeps none).
    fn sheet(
        &self,
        stream: &str,
        version: u64,
        state: &dyn AnyState,
        current: &dyn AnyState,
        viewer: &Viewer,
    ) -> Option<super::sheet::Sheet>;
    /// How a tactical battle ended.
    fn outcome(&self, state: &dyn AnyState) -> Option<TacticalOutcome>;
    /// Its schemas for the OpenAPI document (with its caps as `maxItems`).
    fn schemas(&self) -> RulesetSchemas;
    /// Its caps on how many things a command may hold.
    fn caps(&self) -> &'static [crate::caps::Cap];
}

/// A [`Ruleset`] behind the [`AnyRuleset`] face. `Registered::<CoalitionBattle>::NEW` is what the
/// registry lists.
pub struct Registered<R>(PhantomData<fn() -> R>);

impl<R> Registered<R> {
    /// The registration.
    pub const NEW: Self = Self(PhantomData);
}

fn typed<R: Ruleset>(state: &dyn AnyState) -> Option<&R::State>
where
    R::State: 'static,
{
    state.as_any().downcast_ref::<R::State>()
}

fn to_value(value: &impl Serialize) -> Result<Value, String> {
    serde_json::to_value(value).map_err(|error| error.to_string())
}

impl<R> AnyRuleset for Registered<R>
where
    R: Ruleset,
    R::State: Send + Sync + fmt::Debug + PartialEq + Serialize + serde::de::DeserializeOwned + 'static,
{
    fn id(&self) -> &'static str {
        R::ID
    }

    fn rules(&self) -> &'static str {
        R::RULES
    }

    fn kind(&self) -> StreamKind {
        R::KIND
    }

    fn title(&self) -> &'static str {
        R::TITLE
    }

    fn source(&self) -> &'static str {
        R::SOURCE
    }

    fn docs(&self) -> &'static str {
        R::DOCS
    }

    fn code_prefix(&self) -> &'static str {
        R::CODE_PREFIX
    }

    fn picture_name(&self) -> Option<&'static str> {
        R::PICTURE
    }

    fn tactical(&self) -> bool {
        R::outcome(&R::State::default()).is_some()
    }

    fn new_state(&self) -> Arc<dyn AnyState> {
        Arc::new(R::State::default())
    }

    fn save_state(&self, state: &dyn AnyState) -> Result<String, String> {
        let state = typed::<R>(state).ok_or_else(|| format!("the state is not a {} state", R::ID))?;
        serde_json::to_string(state).map_err(|error| error.to_string())
    }

    fn load_state(&self, saved: &str) -> Result<Arc<dyn AnyState>, String> {
        let state: R::State = serde_json::from_str(saved).map_err(|error| error.to_string())?;
        Ok(Arc::new(state))
    }

    fn evolve(&self, state: &mut dyn AnyState, event_type: &str, schema: u32, data: &str) -> Result<(), String> {
        let state = state
            .as_any_mut()
            .downcast_mut::<R::State>()
            .ok_or_else(|| format!("the state is not a {} state", R::ID))?;
        // Disputes and rulings are every ruleset's (crate::dispute): a correction replaces the
        // state with the one its what-if reached; a filed dispute or a ruling that stands
        // changes nothing.
        if crate::dispute::is_dispute_type(event_type) {
            let event: crate::dispute::DisputeEvent = serde_json::from_str(data).map_err(|error| error.to_string())?;
            if let Some(corrected) = crate::dispute::corrected_state(&event) {
                *state = serde::Deserialize::deserialize(corrected).map_err(|error| error.to_string())?;
            }
            return Ok(());
        }
        let event: R::Event = if schema < EVENT_SCHEMA {
            serde::Deserialize::deserialize(&self.upcast(event_type, schema, data)?)
        } else {
            serde_json::from_str(data)
        }
        .map_err(|error| error.to_string())?;
        R::evolve(state, &event);
        Ok(())
    }

    fn upcast(&self, event_type: &str, schema: u32, data: &str) -> Result<Value, String> {
        let value: Value = serde_json::from_str(data).map_err(|error| error.to_string())?;
        Ok(if schema < EVENT_SCHEMA { R::upcast(event_type, schema, &value) } else { value })
    }

    fn decide(&self, state: &dyn AnyState, command: &Value, ctx: &mut Context) -> Result<Vec<Value>, Refusal> {
        let state = typed::<R>(state).ok_or_else(|| Refusal::Malformed(format!("not a {} stream", R::ID)))?;
        if crate::dispute::is_dispute(command) {
            let command: crate::dispute::DisputeCommand =
                decode(command).map_err(|error| Refusal::Malformed(format!("not a dispute command: {error}")))?;
            let event = crate::dispute::decide(&command, &ctx.actor)?;
            return Ok(vec![to_value(&event).map_err(Refusal::Malformed)?]);
        }
        crate::caps::check(R::CAPS, R::CODE_PREFIX, command)?;
        let command: R::Command =
            decode(command).map_err(|error| Refusal::Malformed(format!("not a {} command: {error}", R::ID)))?;
        let events = R::decide(state, &command, ctx)?;
        events.iter().map(|event| to_value(event).map_err(Refusal::Malformed)).collect()
    }

    fn dice(&self, state: &dyn AnyState) -> Option<DiceCursor> {
        typed::<R>(state).and_then(R::dice)
    }

    fn set_up(&self, setup: &Value, seed_commitment: String) -> Result<Value, Refusal> {
        let setup: R::Setup =
            decode(setup).map_err(|error| Refusal::Malformed(format!("not a {} set-up: {error}", R::ID)))?;
        to_value(&R::set_up(setup, seed_commitment)).map_err(Refusal::Malformed)
    }

    fn setup_mismatch(&self, setup: &Value) -> Option<FieldMismatch> {
        decode::<R::Setup>(setup).err()
    }

    fn command_mismatch(&self, command: &Value) -> Option<FieldMismatch> {
        decode::<R::Command>(command).err()
    }

    fn may_set_up(&self, actor: &Actor) -> Result<(), RuleError> {
        R::may_set_up(actor)
    }

    fn is_action(&self, command: &Value) -> bool {
        command.get("type").and_then(Value::as_str).is_some_and(|kind| !R::SERVICE_COMMANDS.contains(&kind))
    }

    fn salted(&self, command: &Value) -> bool {
        command.get("type").and_then(Value::as_str).is_some_and(|kind| R::SALTED_COMMANDS.contains(&kind))
    }

    fn reveal_seed(&self, seed_hex: String, next_commitment: Option<String>) -> Option<Value> {
        R::reveal_seed(seed_hex, next_commitment).and_then(|command| to_value(&command).ok())
    }

    fn contribute_entropy(&self, entropy: String) -> Option<Value> {
        R::contribute_entropy(entropy).and_then(|command| to_value(&command).ok())
    }

    fn judge_roll(&self, roll: JudgeRoll) -> Value {
        to_value(&R::judge_roll(roll)).unwrap_or(Value::Null)
    }

    fn view(
        &self,
        stream: &str,
        version: u64,
        state: &dyn AnyState,
        current: &dyn AnyState,
        viewer: &Viewer,
    ) -> Result<Value, String> {
        let (Some(state), Some(current)) = (typed::<R>(state), typed::<R>(current)) else {
            return Err(format!("not a {} stream", R::ID));
        };
        to_value(&R::view(stream, version, state, current, viewer))
    }

    fn redact_event(&self, event: &mut Value, current: &dyn AnyState, viewer: &Viewer) {
        if crate::dispute::is_dispute(event) {
            crate::dispute::redact(event, viewer);
            return;
        }
        let fallback = R::State::default();
        R::redact_event(event, typed::<R>(current).unwrap_or(&fallback), viewer);
    }

    fn summary(&self, state: &dyn AnyState) -> Option<Summary> {
        typed::<R>(state).map(R::summary)
    }

    fn picture(&self, stream: &str, version: u64, state: &dyn AnyState, viewer: &Viewer) -> Option<String> {
        typed::<R>(state).and_then(|state| R::picture(stream, version, state, viewer))
    }

    fn sheet(
        &self,
        stream: &str,
        version: u64,
        state: &dyn AnyState,
        current: &dyn AnyState,
        viewer: &Viewer,
    ) -> Option<super::sheet::Sheet> {
        let (state, current) = (typed::<R>(state)?, typed::<R>(current)?);
        R::sheet(&R::view(stream, version, state, current, viewer))
    }

    fn outcome(&self, state: &dyn AnyState) -> Option<TacticalOutcome> {
        typed::<R>(state).and_then(R::outcome)
    }

    fn schemas(&self) -> RulesetSchemas {
        let mut schemas = R::schemas();
        let before: Vec<(String, Value)> =
            schemas.setup.components.iter().chain(&schemas.command.components).cloned().collect();
        crate::caps::annotate_setup(&mut schemas.setup, R::CAPS);
        crate::caps::annotate_commands(&mut schemas.command, R::CAPS);
        // A component the caps edited is the same component wherever another part (an event, the
        // view) refers to it: one schema per name in the document.
        let edited: Vec<(String, Value)> = schemas
            .setup
            .components
            .iter()
            .chain(&schemas.command.components)
            .filter(|(name, _)| *name != schemas.setup.name && *name != schemas.command.name)
            .filter(|edited| !before.contains(edited))
            .cloned()
            .collect();
        for part in [&mut schemas.setup, &mut schemas.command, &mut schemas.event, &mut schemas.view] {
            for (name, schema) in part.components.iter_mut() {
                if let Some((_, annotated)) = edited.iter().find(|(edited, _)| edited == name) {
                    *schema = annotated.clone();
                }
            }
        }
        schemas
    }

    fn caps(&self) -> &'static [crate::caps::Cap] {
        R::CAPS
    }
}
