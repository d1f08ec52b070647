//! `herald verify`: replay one stream, a campaign with its battles, or every stream, and compare
//! the events each command produces again with the stored ones.
//!
//! Two ways in: the log itself (the server stopped: sled lets one process open it), where the
//! command line may use the sealed seeds like a judge; or a running server's API (`--url`), where
//! the report is what the token may see (anonymous: streams whose seeds are revealed). A progress
//! bar runs on stderr when there is more than one stream, and a summary ends the run.

use std::process::ExitCode;

use anyhow::Context as _;
use herald_store::EventStore;
use indicatif::{ProgressBar, ProgressStyle};
use serde_json::Value;

use super::LogArgs;
use crate::app::verify::{verify_stream, VerifyError};

/// What to verify.
#[derive(Debug, Clone)]
pub enum Target {
    /// One stream (`battle-…`, `campaign-…`).
    Stream(String),
    /// A campaign's stream and every battle stream it announced.
    Campaign(String),
    /// Every battle and campaign stream in the log.
    All,
}

/// How one stream came out.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Outcome {
    /// Every command produced its stored events again.
    Verified,
    /// What could be replayed matched; some dice came from keys still sealed to the caller.
    Partial,
    /// A stored event differs from what its command produces again.
    Differs,
    /// The seed is sealed and the caller may not use it (through the API, without a judge's
    /// token): nothing replayed.
    Sealed,
    /// The stream could not be verified (missing, unreadable, the server refused).
    Failed(String),
}

/// Where the streams and their reports come from.
trait Source {
    /// The streams `target` names, in the log's order.
    fn streams(&self, target: &Target) -> anyhow::Result<Vec<String>>;
    /// The verification report of `stream`, as JSON.
    fn verify(&self, stream: &str) -> Result<Value, Outcome>;
}

/// Run `herald verify`: exit 0 when every stream verified (or partially, keys still sealed), 2
/// when one differs, 1 when one could not be verified.
pub fn run(args: &LogArgs, target: Target, url: Option<&str>, token: Option<&str>) -> anyhow::Result<ExitCode> {
    let source: Box<dyn Source> = match url {
        Some(url) => Box::new(Remote::new(url, token)?),
        None => Box::new(Local::open(args)?),
    };
    let streams = source.streams(&target)?;
    if let Target::Stream(stream) = &target {
        // One stream: its whole report, as before.
        return match source.verify(stream) {
            Ok(report) => {
                println!("{}", serde_json::to_string_pretty(&report)?);
                Ok(exit_code(&[outcome_of(&report)]))
            }
            Err(outcome) => {
                eprintln!("herald: {stream}: {}", describe(&outcome));
                Ok(exit_code(&[outcome]))
            }
        };
    }
    let bar = progress(streams.len() as u64);
    let mut outcomes = Vec::with_capacity(streams.len());
    for stream in &streams {
        bar.set_message(stream.clone());
        let outcome = source.verify(stream).map_or_else(|outcome| outcome, |report| outcome_of(&report));
        if !matches!(outcome, Outcome::Verified | Outcome::Partial) {
            bar.println(format!("{stream}: {}", describe(&outcome)));
        }
        outcomes.push(outcome);
        bar.inc(1);
    }
    bar.finish_and_clear();
    println!("{}", summary(&outcomes));
    Ok(exit_code(&outcomes))
}

fn progress(length: u64) -> ProgressBar {
    let bar = ProgressBar::new(length);
    if let Ok(style) = ProgressStyle::with_template("verify {bar:30} {pos}/{len} streams, {eta} left {msg}") {
        bar.set_style(style);
    }
    bar
}

fn outcome_of(report: &Value) -> Outcome {
    match report.get("result").and_then(Value::as_str) {
        Some("verified") => Outcome::Verified,
        Some("partial") => Outcome::Partial,
        Some("differs") => Outcome::Differs,
        other => Outcome::Failed(format!("a report without a known result ({other:?})")),
    }
}

fn describe(outcome: &Outcome) -> String {
    match outcome {
        Outcome::Verified => "verified".into(),
        Outcome::Partial => "partial: some keys still sealed".into(),
        Outcome::Differs => "DIFFERS: a stored event is not what its command produces again".into(),
        Outcome::Sealed => "not verified: its seed is still sealed (a judge's token may verify it)".into(),
        Outcome::Failed(why) => format!("not verified: {why}"),
    }
}

/// `12 streams: 10 verified, 1 partial (keys still sealed), 0 differ, 1 sealed to you, 0 failed`.
fn summary(outcomes: &[Outcome]) -> String {
    let count = |wanted: fn(&Outcome) -> bool| outcomes.iter().filter(|outcome| wanted(outcome)).count();
    format!(
        "{} streams: {} verified, {} partial (keys still sealed), {} differ, {} sealed to you, {} failed",
        outcomes.len(),
        count(|o| *o == Outcome::Verified),
        count(|o| *o == Outcome::Partial),
        count(|o| *o == Outcome::Differs),
        count(|o| *o == Outcome::Sealed),
        count(|o| matches!(o, Outcome::Failed(_))),
    )
}

fn exit_code(outcomes: &[Outcome]) -> ExitCode {
    if outcomes.contains(&Outcome::Differs) {
        ExitCode::from(2)
    } else if outcomes.iter().any(|o| matches!(o, Outcome::Failed(_) | Outcome::Sealed)) {
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}

/// The battle streams a campaign's events announced (`coalition.BattleAnnounced`'s `battle`,
/// seed 003 §3.1), in order, each once.
fn announced_battles<'a>(events: impl Iterator<Item = (&'a str, Value)>) -> Vec<String> {
    let mut battles = Vec::new();
    for (event_type, data) in events {
        if event_type != "coalition.BattleAnnounced" {
            continue;
        }
        if let Some(battle) = data.get("battle").and_then(Value::as_str) {
            if !battles.iter().any(|known| known == battle) {
                battles.push(battle.to_string());
            }
        }
    }
    battles
}

/// A stream name from a stream name or a bare UUID (`kind` is `battle` or `campaign`).
fn stream_name(id: &str, kind: &str) -> String {
    if id.contains('-') && uuid::Uuid::parse_str(id).is_err() {
        id.to_string()
    } else {
        format!("{kind}-{id}")
    }
}

/// The log itself, opened by this process.
struct Local {
    store: std::sync::Arc<dyn EventStore>,
}

impl Local {
    fn open(args: &LogArgs) -> anyhow::Result<Self> {
        Ok(Self { store: super::open_store(args, "verify")? })
    }
}

impl Source for Local {
    fn streams(&self, target: &Target) -> anyhow::Result<Vec<String>> {
        match target {
            Target::Stream(stream) => Ok(vec![stream.clone()]),
            Target::Campaign(id) => {
                let campaign = stream_name(id, "campaign");
                let mut events = Vec::new();
                self.store.replay_stream(&campaign, 0, &mut |event| {
                    events
                        .push((event.event_type.to_string(), serde_json::from_str(event.data).unwrap_or(Value::Null)));
                    std::ops::ControlFlow::Continue(())
                })?;
                anyhow::ensure!(!events.is_empty(), "no campaign {campaign} in the log");
                let battles = announced_battles(events.iter().map(|(t, d)| (t.as_str(), d.clone())));
                let mut streams = vec![campaign];
                // A battle a judge settled with the adjudication has no stream of its own.
                for battle in battles {
                    if self.store.stream_version(&battle)?.is_some() {
                        streams.push(battle);
                    }
                }
                Ok(streams)
            }
            Target::All => {
                let mut streams: Vec<String> = Vec::new();
                let mut seen = std::collections::HashSet::new();
                self.store.replay_all(0, &mut |event| {
                    let verifiable = event.stream.starts_with("battle-") || event.stream.starts_with("campaign-");
                    if verifiable && seen.insert(event.stream.to_string()) {
                        streams.push(event.stream.to_string());
                    }
                    std::ops::ControlFlow::Continue(())
                })?;
                Ok(streams)
            }
        }
    }

    fn verify(&self, stream: &str) -> Result<Value, Outcome> {
        // The command line runs on the server's own data: it may use the sealed seed, like a judge.
        match verify_stream(self.store.as_ref(), stream, true) {
            Ok(report) => serde_json::to_value(&report).map_err(|error| Outcome::Failed(error.to_string())),
            Err(VerifyError::Sealed(_)) => Err(Outcome::Sealed),
            Err(error) => Err(Outcome::Failed(error.to_string())),
        }
    }
}

/// A running server, through its API.
struct Remote {
    base: String,
    token: Option<String>,
    client: reqwest::blocking::Client,
}

impl Remote {
    fn new(url: &str, token: Option<&str>) -> anyhow::Result<Self> {
        let client = reqwest::blocking::Client::builder()
            .timeout(std::time::Duration::from_secs(300))
            .build()
            .context("build the HTTP client")?;
        Ok(Self { base: url.trim_end_matches('/').to_string(), token: token.map(str::to_string), client })
    }

    /// GET `path_or_url`: the body as JSON and the `Link: rel="next"` target, if any.
    fn get(&self, path_or_url: &str) -> anyhow::Result<(reqwest::StatusCode, Value, Option<String>)> {
        let url = if path_or_url.starts_with("http") {
            path_or_url.to_string()
        } else {
            format!("{}{path_or_url}", self.base)
        };
        let mut request = self.client.get(&url);
        if let Some(token) = &self.token {
            request = request.bearer_auth(token);
        }
        let response = request.send().with_context(|| format!("GET {url} (is the server running there?)"))?;
        let status = response.status();
        let next = response
            .headers()
            .get_all(reqwest::header::LINK)
            .iter()
            .filter_map(|value| value.to_str().ok())
            .flat_map(|value| value.split(','))
            .find(|link| link.contains("rel=\"next\""))
            .and_then(|link| link.split(['<', '>']).nth(1))
            .map(str::to_string);
        let body = response.json::<Value>().with_context(|| format!("GET {url}: not JSON"))?;
        Ok((status, body, next))
    }

    /// Every item of a list, following `Link: rel="next"` across pages.
    fn list(&self, path: &str) -> anyhow::Result<Vec<Value>> {
        let mut items = Vec::new();
        let mut next = Some(path.to_string());
        while let Some(page) = next {
            let (status, body, link) = self.get(&page)?;
            anyhow::ensure!(status.is_success(), "GET {page}: {status}: {}", problem_detail(&body));
            items.extend(body.as_array().cloned().unwrap_or_default());
            next = link;
        }
        Ok(items)
    }

    /// The stream names of a list's items.
    fn list_streams(&self, path: &str) -> anyhow::Result<Vec<String>> {
        Ok(self
            .list(path)?
            .iter()
            .filter_map(|item| item.get("stream").and_then(Value::as_str).map(str::to_string))
            .collect())
    }
}

fn problem_detail(body: &Value) -> String {
    body.get("detail").and_then(Value::as_str).map_or_else(|| body.to_string(), str::to_string)
}

impl Source for Remote {
    fn streams(&self, target: &Target) -> anyhow::Result<Vec<String>> {
        match target {
            Target::Stream(stream) => Ok(vec![stream.clone()]),
            Target::Campaign(id) => {
                // The server lists the battles a campaign announced (`?campaign=`, docs/API.md
                // "Paging"); an unknown campaign is its 404.
                let campaign = stream_name(id, "campaign");
                let mut streams = vec![campaign.clone()];
                streams.extend(self.list_streams(&format!("/v1/battles?campaign={campaign}"))?);
                Ok(streams)
            }
            Target::All => {
                let mut streams = self.list_streams("/v1/campaigns")?;
                streams.extend(self.list_streams("/v1/battles")?);
                Ok(streams)
            }
        }
    }

    fn verify(&self, stream: &str) -> Result<Value, Outcome> {
        match self.get(&format!("/v1/streams/{stream}/verify")) {
            Ok((status, body, _)) if status.is_success() => Ok(body),
            Ok((status, _, _)) if status == reqwest::StatusCode::FORBIDDEN => Err(Outcome::Sealed),
            Ok((status, body, _)) => Err(Outcome::Failed(format!("{status}: {}", problem_detail(&body)))),
            Err(error) => Err(Outcome::Failed(format!("{error:#}"))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn a_campaign_names_each_announced_battle_once_in_order() {
        let events = [
            ("coalition.TurnOpened", json!({})),
            ("coalition.BattleAnnounced", json!({"battle": "battle-b"})),
            ("coalition.BattleAnnounced", json!({"battle": "battle-a"})),
            ("coalition.BattleAnnounced", json!({"battle": "battle-b"})),
        ];
        assert_eq!(announced_battles(events.into_iter()), ["battle-b", "battle-a"]);
    }

    #[test]
    fn a_difference_outweighs_a_failure_and_partial_is_a_success() {
        assert_eq!(exit_code(&[Outcome::Verified, Outcome::Partial]), ExitCode::SUCCESS);
        assert_eq!(exit_code(&[Outcome::Verified, Outcome::Sealed]), ExitCode::FAILURE);
        assert_eq!(exit_code(&[Outcome::Failed("x".into()), Outcome::Differs]), ExitCode::from(2));
        assert_eq!(
            summary(&[Outcome::Verified, Outcome::Partial, Outcome::Sealed]),
            "3 streams: 1 verified, 1 partial (keys still sealed), 0 differ, 1 sealed to you, 0 failed"
        );
    }

    #[test]
    fn a_bare_uuid_becomes_a_stream_name() {
        let id = "0193a0f4-6c1e-7d3b-9f2a-0123456789ab";
        assert_eq!(stream_name(id, "campaign"), format!("campaign-{id}"));
        assert_eq!(stream_name(&format!("campaign-{id}"), "campaign"), format!("campaign-{id}"));
    }
}
