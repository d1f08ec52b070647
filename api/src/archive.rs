//! `herald export` / `herald import`: a whole log as one gzipped, checksummed NDJSON file.
//!
//! The backup story for sled and the way to move a log between sled and PostgreSQL. The file
//! holds, one JSON object a line: a header (`{"herald_export":1,…}` with the counts), every
//! secret (`{"secret":{"key":…,"value":"<hex>"}}`), then `$all` in order, each command
//! (`{"command":…}`) just before the first event it produced (`{"event":…}`), and a trailer
//! (`{"sha256":…,"lines":…}`) with the SHA-256 of every line before it. An import checks the
//! checksum first, writes into an empty log only, keeps every position, id, timestamp and
//! payload byte for byte, then reads the new log back and compares it with the file. The CLI
//! makes an import all or nothing on both backends by importing into a staging log (sled) or
//! schema (PostgreSQL) and putting it in place only once it is verified (`cli::import_sled`,
//! `cli::import_postgres`).
//!
//! An export of a log being written is a consistent cut at one `$all` position, the head when
//! the export began (the header's `position`): every event up to it, none after it, and so
//! never half of a command (a command's events are committed together, so a head never falls
//! inside one), with every command whose first event is in the cut. Secrets are read after the
//! head, and a secret is stored before the events that need it, so every one the cut needs is
//! in the file (a few written after the cut may be too; they are harmless).

use std::fs::File;
use std::io::{BufRead, BufReader, BufWriter, Write};
use std::ops::ControlFlow;
use std::path::Path;

use anyhow::{bail, Context as _};
use flate2::{read::GzDecoder, write::GzEncoder, Compression};
use herald_store::{AppendRequest, EventStore, ExpectedVersion, NewEvent, RecordedEvent, StoredCommand};
use indicatif::{ProgressBar, ProgressStyle};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// The format's version, in the header.
const FORMAT: u32 = 1;
/// Events read from the log per call.
const PAGE: usize = 1000;
/// Append requests written per call on import.
const BATCH: usize = 500;

/// One line of the file.
#[derive(Debug, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
enum Line {
    /// The first line.
    #[serde(rename = "herald_export")]
    Header(Header),
    Secret(Secret),
    Command(StoredCommand),
    Event(RecordedEvent),
    /// The last line.
    Trailer(Trailer),
}

#[derive(Debug, Serialize, Deserialize)]
struct Header {
    format: u32,
    /// The last `$all` position in the file: the cut (`None` for an empty log). Files of
    /// earlier builds lack it; their cut is `events - 1` all the same.
    #[serde(default)]
    position: Option<u64>,
    events: u64,
    commands: u64,
    secrets: u64,
}

#[derive(Debug, Serialize, Deserialize)]
struct Secret {
    key: String,
    /// The value in hex.
    value: String,
}

#[derive(Debug, Serialize, Deserialize)]
struct Trailer {
    /// SHA-256 of every line before this one, newlines included, in hex.
    sha256: String,
    lines: u64,
}

/// What an export or import moved.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Counts {
    /// Events.
    pub events: u64,
    /// Stored commands.
    pub commands: u64,
    /// Secrets (sealed seeds, token hashes).
    pub secrets: u64,
}

impl Counts {
    /// The last `$all` position the file holds, its cut (`None` for an empty log): `$all` is
    /// gap-free from 0, so it is the event count less one.
    pub fn position(&self) -> Option<u64> {
        self.events.checked_sub(1)
    }
}

/// How far an export, import or verify is, on stderr: a bar on a terminal; elsewhere (a log, a
/// script, a test) a plain line `herald <what>: <done>/<total> events` at every hundredth of
/// the way, so an operator's log (and the kill-midway tests) can tell where it got to.
enum Progress {
    Hidden,
    Bar(ProgressBar),
    Lines { what: &'static str, length: u64, done: u64, next: u64, step: u64 },
}

impl Progress {
    fn inc(&mut self, by: u64) {
        match self {
            Self::Hidden => {}
            Self::Bar(bar) => bar.inc(by),
            Self::Lines { what, length, done, next, step } => {
                *done += by;
                if *done >= *next {
                    eprintln!("herald {what}: {done}/{length} events");
                    *next = (*done / *step + 1) * *step;
                }
            }
        }
    }

    fn finish(&self) {
        if let Self::Bar(bar) = self {
            bar.finish_and_clear();
        }
    }
}

fn bar(length: u64, what: &'static str, show: bool) -> Progress {
    if !show {
        return Progress::Hidden;
    }
    if !std::io::IsTerminal::is_terminal(&std::io::stderr()) {
        let step = (length / 100).max(1);
        return Progress::Lines { what, length, done: 0, next: step, step };
    }
    let bar = ProgressBar::new(length);
    if let Ok(style) =
        ProgressStyle::with_template(&format!("{what} {{bar:40}} {{pos}}/{{len}} events ({{per_sec}}, {{eta}} left)"))
    {
        bar.set_style(style);
    }
    Progress::Bar(bar)
}

/// Write `store`'s whole log to `path` (gzip). `progress` shows a bar on stderr.
pub fn export(store: &dyn EventStore, path: &Path, progress: bool) -> anyhow::Result<Counts> {
    // The cut: appends that commit after this are left to the next backup.
    let events = store.head_position()?.map_or(0, |head| head + 1);
    let mut commands = std::collections::BTreeMap::new();
    store.scan_commands(&mut |command| {
        // A command of an append after the cut is not in it.
        if command.first_position < events {
            commands.insert(command.first_position, command);
        }
        ControlFlow::Continue(())
    })?;
    let mut secrets = Vec::new();
    store.scan_secrets(&mut |key, value| {
        secrets.push(Secret { key: key.to_string(), value: hex::encode(value) });
        ControlFlow::Continue(())
    })?;
    let counts = Counts { events, commands: commands.len() as u64, secrets: secrets.len() as u64 };
    let file = File::create(path).with_context(|| format!("create {}", path.display()))?;
    let mut out =
        Writer { inner: GzEncoder::new(BufWriter::new(file), Compression::default()), hash: Sha256::new(), lines: 0 };
    out.line(&Line::Header(Header {
        format: FORMAT,
        position: counts.position(),
        events,
        commands: counts.commands,
        secrets: counts.secrets,
    }))?;
    for secret in secrets {
        out.line(&Line::Secret(secret))?;
    }
    let mut bar = bar(events, "export", progress);
    let mut from = 0;
    while from < events {
        let page = store.read_all(from, PAGE)?;
        let Some(last) = page.last() else { break };
        from = (last.position + 1).min(events);
        // A page may reach past the cut while the log is written: those are not in this export.
        for event in page.into_iter().take_while(|event| event.position < events) {
            if let Some(command) = commands.remove(&event.position) {
                out.line(&Line::Command(command))?;
            }
            out.line(&Line::Event(event))?;
            bar.inc(1);
        }
    }
    bar.finish();
    if from != events {
        bail!("the log ended at {from} events, its head said {events}");
    }
    let trailer = Trailer { sha256: hex::encode(out.hash.clone().finalize()), lines: out.lines };
    let line = serde_json::to_string(&Line::Trailer(trailer))?;
    writeln!(out.inner, "{line}")?;
    out.inner.finish()?.flush()?;
    Ok(counts)
}

struct Writer<W: Write> {
    inner: W,
    hash: Sha256,
    lines: u64,
}

impl<W: Write> Writer<W> {
    fn line(&mut self, line: &Line) -> anyhow::Result<()> {
        let mut text = serde_json::to_string(line)?;
        text.push('\n');
        self.hash.update(text.as_bytes());
        self.inner.write_all(text.as_bytes())?;
        self.lines += 1;
        Ok(())
    }
}

/// The lines of an export file, checked: header first, trailer last with a matching checksum.
fn lines(path: &Path) -> anyhow::Result<impl Iterator<Item = anyhow::Result<Line>>> {
    let file = File::open(path).with_context(|| format!("open {}", path.display()))?;
    let mut reader = BufReader::new(GzDecoder::new(BufReader::new(file)));
    let mut hash = Sha256::new();
    let mut count = 0u64;
    let mut done = false;
    Ok(std::iter::from_fn(move || {
        if done {
            return None;
        }
        let mut text = String::new();
        let line = match reader.read_line(&mut text) {
            Ok(0) => Err(anyhow::anyhow!("the file ends without its checksum line: truncated")),
            Ok(_) => serde_json::from_str::<Line>(&text).with_context(|| format!("line {} does not parse", count + 1)),
            Err(error) => Err(anyhow::Error::new(error).context("read the export (corrupt gzip?)")),
        };
        let line = line.and_then(|line| match line {
            Line::Trailer(trailer) => {
                done = true;
                let actual = hex::encode(hash.clone().finalize());
                if trailer.sha256 != actual || trailer.lines != count {
                    bail!(
                        "checksum mismatch: the file says {} over {} lines, its content is {actual} over {count}",
                        trailer.sha256,
                        trailer.lines
                    );
                }
                Ok(Line::Trailer(trailer))
            }
            Line::Header(_) if count > 0 => bail!("line {}: a second header", count + 1),
            line if count == 0 && !matches!(line, Line::Header(_)) => bail!("not a herald export: no header line"),
            line => Ok(line),
        });
        hash.update(text.as_bytes());
        count += 1;
        if line.is_err() {
            done = true;
        }
        Some(line)
    }))
}

/// Check `path`'s checksum and structure without writing anything; returns its header counts.
pub fn check(path: &Path) -> anyhow::Result<Counts> {
    let mut counts = None;
    for line in lines(path)? {
        if let Line::Header(header) = line? {
            if header.format != FORMAT {
                bail!("export format {} is not the {FORMAT} this herald reads", header.format);
            }
            let found = Counts { events: header.events, commands: header.commands, secrets: header.secrets };
            if header.position.is_some() && header.position != found.position() {
                bail!("the header's position {:?} does not end {} events", header.position, header.events);
            }
            counts = Some(found);
        }
    }
    counts.context("the file has no header")
}

/// Load the export at `path` into `store`, which must be empty; then read the log back and
/// compare it with the file.
pub fn import(store: &dyn EventStore, path: &Path, progress: bool) -> anyhow::Result<Counts> {
    let counts = check(path)?;
    if let Some(head) = store.head_position()? {
        bail!("the target log is not empty (its head is at {head}): import into a new one");
    }
    let mut bar = bar(counts.events, "import", progress);
    let mut importer = Importer { store, pending: Vec::new(), group: None, command: None, next: 0, bar: &mut bar };
    let mut written = Counts { events: 0, commands: 0, secrets: 0 };
    for line in lines(path)? {
        match line? {
            Line::Secret(secret) => {
                let value = hex::decode(&secret.value).with_context(|| format!("secret {} is not hex", secret.key))?;
                store.put_secret(&secret.key, &value)?;
                written.secrets += 1;
            }
            Line::Command(command) => {
                importer.close_group()?;
                importer.command = Some(command);
                written.commands += 1;
            }
            Line::Event(event) => {
                importer.event(event)?;
                written.events += 1;
            }
            Line::Header(_) | Line::Trailer(_) => {}
        }
    }
    importer.close_group()?;
    importer.flush()?;
    bar.finish();
    if written != counts {
        bail!("the file's header promised {counts:?} but held {written:?}");
    }
    verify(store, path, progress)?;
    Ok(written)
}

/// Builds append requests from the file's events: one per command (its events are
/// contiguous in `$all`), one per event without a command.
struct Importer<'a> {
    store: &'a dyn EventStore,
    pending: Vec<(AppendRequest, Vec<u64>)>,
    /// The request being filled and the positions its events had.
    group: Option<(AppendRequest, Vec<u64>)>,
    /// The command the next event starts.
    command: Option<StoredCommand>,
    /// The position the next event must have.
    next: u64,
    bar: &'a mut Progress,
}

impl Importer<'_> {
    fn event(&mut self, event: RecordedEvent) -> anyhow::Result<()> {
        if event.position != self.next {
            bail!("event at position {} where {} was due: $all in the file is not dense", event.position, self.next);
        }
        self.next += 1;
        let starts = self.command.as_ref().is_some_and(|command| command.first_position == event.position);
        let continues = !starts
            && event.command_id.is_some()
            && self
                .group
                .as_ref()
                .is_some_and(|(request, _)| request.stream == event.stream && request.command_id == event.command_id);
        if !continues {
            self.close_group()?;
            let command = if starts { self.command.take() } else { None };
            let expected = match event.version {
                0 => ExpectedVersion::NoStream,
                version => ExpectedVersion::Exact(version - 1),
            };
            let request = AppendRequest {
                stream: event.stream.clone(),
                expected,
                events: Vec::new(),
                command_id: command.as_ref().map(|command| command.command_id.clone()),
                command: command.and_then(|command| command.command),
            };
            self.group = Some((request, Vec::new()));
        }
        if let Some((request, positions)) = &mut self.group {
            positions.push(event.position);
            request.events.push(NewEvent {
                id: event.id,
                event_type: event.event_type,
                schema: event.schema,
                recorded_at: event.recorded_at,
                actor: event.actor,
                command_id: event.command_id,
                correlation_id: event.correlation_id,
                causation_id: event.causation_id,
                rules: event.rules,
                data: event.data,
            });
        }
        Ok(())
    }

    fn close_group(&mut self) -> anyhow::Result<()> {
        if let Some(group) = self.group.take() {
            self.pending.push(group);
            if self.pending.len() >= BATCH {
                self.flush()?;
            }
        }
        Ok(())
    }

    fn flush(&mut self) -> anyhow::Result<()> {
        let batch = std::mem::take(&mut self.pending);
        let (requests, positions): (Vec<_>, Vec<_>) = batch.into_iter().unzip();
        let results = self.store.append_many(requests);
        for (result, expected) in results.into_iter().zip(positions) {
            let result = result.context("writing an imported event")?;
            let written: Vec<u64> = result.events.iter().map(|event| event.position).collect();
            if written != expected || result.replayed {
                bail!("imported events landed at positions {written:?}, not {expected:?}: is another process writing?");
            }
            self.bar.inc(written.len() as u64);
        }
        Ok(())
    }
}

/// Read `store`'s log back and compare every event and command with the file.
pub fn verify(store: &dyn EventStore, path: &Path, progress: bool) -> anyhow::Result<()> {
    let counts = check(path)?;
    let mut bar = bar(counts.events, "verify", progress);
    let mut page: std::collections::VecDeque<RecordedEvent> = Default::default();
    let mut from = 0;
    for line in lines(path)? {
        match line? {
            Line::Event(expected) => {
                if page.is_empty() {
                    page = store.read_all(from, PAGE)?.into();
                    from += page.len() as u64;
                }
                let Some(actual) = page.pop_front() else {
                    bail!("the log ends before position {}", expected.position);
                };
                if actual != expected {
                    bail!(
                        "position {} differs from the file:\n  log:  {actual:?}\n  file: {expected:?}",
                        expected.position
                    );
                }
                bar.inc(1);
            }
            Line::Command(expected) => {
                let actual = store.stored_command(&expected.command_id)?;
                if actual.as_ref() != Some(&expected) {
                    bail!("command {} differs from the file: {actual:?}", expected.command_id);
                }
            }
            Line::Secret(secret) => {
                if store.get_secret(&secret.key)?.map(hex::encode) != Some(secret.value) {
                    bail!("secret {} differs from the file", secret.key);
                }
            }
            Line::Header(_) | Line::Trailer(_) => {}
        }
    }
    bar.finish();
    if let Some(head) = store.head_position()? {
        if head + 1 != counts.events {
            bail!("the log holds {} events, the file {}", head + 1, counts.events);
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use herald_store::SledStore;

    fn sample(store: &dyn EventStore) {
        let event = |n: u32| NewEvent {
            id: uuid::Uuid::now_v7(),
            event_type: "test.Happened".into(),
            schema: 1,
            recorded_at: chrono::Utc::now(),
            actor: "alice".into(),
            command_id: None,
            correlation_id: Some("corr".into()),
            causation_id: None,
            rules: "test@1".into(),
            data: herald_store::Payload::from_value(&serde_json::json!({"n": n, "z": "é", "a": [1, 2]})),
        };
        for n in 0..30u32 {
            let stream = format!("battle-{}", n % 4);
            let command_id = (n % 3 != 0).then(|| format!("cmd-{n}"));
            let mut events: Vec<NewEvent> = (0..1 + n % 3).map(|_| event(n)).collect();
            for e in &mut events {
                e.command_id = command_id.clone();
            }
            store
                .append(AppendRequest {
                    stream,
                    expected: ExpectedVersion::Any,
                    events,
                    command: command_id.as_ref().map(|_| serde_json::json!({"type": "Do", "n": n}).into()),
                    command_id,
                })
                .expect("append");
        }
        store.put_secret("seed:battle-1", &[0, 1, 2, 255]).expect("secret");
        store.put_secret("token:abc", b"{}").expect("secret");
    }

    #[test]
    fn an_exported_sled_log_imports_into_an_empty_sled_log_identically() {
        let dir = tempfile::tempdir().expect("dir");
        let source = SledStore::open(dir.path().join("a")).expect("open");
        sample(&source);
        let file = dir.path().join("log.ndjson.gz");
        let exported = export(&source, &file, false).expect("export");
        assert_eq!(exported.events, source.head_position().expect("head").map_or(0, |h| h + 1));
        let target = SledStore::open(dir.path().join("b")).expect("open");
        assert_eq!(import(&target, &file, false).expect("import"), exported);
        verify(&source, &file, false).expect("the source matches its export too");
        assert!(import(&target, &file, false).is_err(), "a non-empty log is refused");
    }

    #[test]
    fn a_changed_or_truncated_export_is_refused_before_anything_is_written() {
        let dir = tempfile::tempdir().expect("dir");
        let source = SledStore::open(dir.path().join("a")).expect("open");
        sample(&source);
        let file = dir.path().join("log.ndjson.gz");
        export(&source, &file, false).expect("export");
        let mut text = String::new();
        std::io::Read::read_to_string(&mut GzDecoder::new(File::open(&file).expect("open")), &mut text)
            .expect("gunzip");
        let write = |text: &str, name: &str| {
            let path = dir.path().join(name);
            let mut gz = GzEncoder::new(File::create(&path).expect("create"), Compression::fast());
            gz.write_all(text.as_bytes()).expect("write");
            gz.finish().expect("finish");
            path
        };
        let changed = write(&text.replacen("alice", "mallory", 1), "changed.gz");
        let cut = text.lines().take(10).map(|line| format!("{line}\n")).collect::<String>();
        let truncated = write(&cut, "truncated.gz");
        for bad in [changed, truncated] {
            let target = SledStore::open(dir.path().join(format!("t-{}", uuid::Uuid::now_v7()))).expect("open");
            assert!(import(&target, &bad, false).is_err(), "{}", bad.display());
            assert_eq!(target.head_position().expect("head"), None, "nothing written");
        }
    }
}
