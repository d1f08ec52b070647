//! The `herald` binary: `verify` on a data directory, and the first-start admin token.

use std::{
    io::{BufRead, BufReader},
    process::{Command, Stdio},
    sync::Arc,
};

use chrono::{TimeZone, Utc};
use herald_api::app::{CommandMeta, Service};
use herald_domain::{
    coalition::battle::{BattleCommand, CoalitionBattle},
    Actor, Role,
};
use herald_projections::Catalog;
use herald_store::{EventStore, SledStore};

mod support;

#[test]
fn herald_verify_reports_a_resolved_battle_as_verified() {
    let dir = tempfile::tempdir().expect("temp dir");
    let stream = {
        let store: Arc<dyn EventStore> = Arc::new(SledStore::open(dir.path()).expect("store"));
        let catalog = Arc::new(Catalog::rebuild(store.as_ref()).expect("catalog"));
        let service = Service::new(store, catalog);
        support::play_battle(&service)
    };
    let output = Command::new(env!("CARGO_BIN_EXE_herald"))
        .args(["verify", &stream, "--data-dir"])
        .arg(dir.path())
        .output()
        .expect("herald runs");
    let report: serde_json::Value = serde_json::from_slice(&output.stdout).expect("a JSON report");
    assert!(output.status.success(), "{report}");
    assert_eq!(report["result"], "verified");
    assert_eq!(report["seed"], "revealed");
}

#[test]
fn first_start_without_an_admin_token_prints_one_once() {
    let dir = tempfile::tempdir().expect("temp dir");
    let first_line = |dir: &std::path::Path| {
        let mut child = Command::new(env!("CARGO_BIN_EXE_herald"))
            .args(["serve", "--port", "0", "--data-dir"])
            .arg(dir)
            .env_remove("HERALD_ADMIN_TOKEN")
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("herald starts");
        // The server logs "herald listening" to stderr once it is bound; stdout has the token.
        let stderr = BufReader::new(child.stderr.take().expect("stderr"));
        for line in stderr.lines() {
            if line.expect("a line").contains("herald listening") {
                break;
            }
        }
        child.kill().expect("stopped");
        let mut stdout = String::new();
        std::io::Read::read_to_string(&mut child.stdout.take().expect("stdout"), &mut stdout).expect("read");
        child.wait().expect("waited");
        stdout
    };
    let first = first_line(dir.path());
    assert!(first.contains("generated admin token"), "first start prints the token: {first:?}");
    assert!(first.contains("hrd_"));
    let second = first_line(dir.path());
    assert!(!second.contains("hrd_"), "the token is printed only once: {second:?}");
}

#[test]
fn a_rebuilt_catalog_equals_the_live_one() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store: Arc<dyn EventStore> = Arc::new(SledStore::open(dir.path()).expect("store"));
    let live = Arc::new(Catalog::rebuild(store.as_ref()).expect("catalog"));
    let service = Service::new(store.clone(), live.clone());
    support::play_battle(&service);
    support::play_battle(&service);
    let rebuilt = Catalog::rebuild(store.as_ref()).expect("rebuilt");
    assert!(live.same_as(&rebuilt), "projections rebuilt from $all equal the live ones");
    assert_eq!(live.entries(herald_domain::StreamKind::Battle).len(), 2);
}

#[test]
fn a_sealed_seed_is_kept_out_of_the_event_log() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store: Arc<dyn EventStore> = Arc::new(SledStore::open(dir.path()).expect("store"));
    let catalog = Arc::new(Catalog::rebuild(store.as_ref()).expect("catalog"));
    let service = Service::new(store.clone(), catalog);
    let seed = [7u8; 32];
    let stream = support::create_battle(&service, Some(seed));
    let log = serde_json::to_string(&store.read_all(0, 1000).expect("read")).expect("json");
    assert!(!log.contains(&hex::encode(seed)), "the seed is not in the log before it is revealed");
    let meta = CommandMeta {
        actor: Actor::new("judge", Role::Judge),
        recorded_at: Utc.with_ymd_and_hms(2026, 11, 21, 10, 0, 0).unwrap(),
        idempotency_key: None,
        correlation_id: None,
        expected_version: None,
        scope: herald_api::auth::Scope::Host,
    };
    let reveal = BattleCommand::RevealSeed { seed: hex::encode(seed), next_commitment: None };
    service.execute_as::<CoalitionBattle>(&stream, &reveal, meta).expect("revealed");
    let log = serde_json::to_string(&store.read_all(0, 1000).expect("read")).expect("json");
    assert!(log.contains(&hex::encode(seed)), "after the reveal the seed is public");
}

#[test]
fn the_stand_alone_python_checker_recomputes_every_die_of_a_battle() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store: Arc<dyn EventStore> = Arc::new(SledStore::open(dir.path()).expect("store"));
    let catalog = Arc::new(Catalog::rebuild(store.as_ref()).expect("catalog"));
    let service = Service::new(store.clone(), catalog);
    let stream = support::play_battle(&service);
    let events = store.read_stream(&stream, 0, herald_store::Direction::Forwards, 100).expect("events");
    let viewer = herald_projections::Viewer::public();
    let page = |events: &[herald_store::RecordedEvent]| {
        let views: Vec<_> = events.iter().map(|e| herald_projections::EventView::new(e, None, &viewer)).collect();
        serde_json::json!({ "events": views, "next": null })
    };
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/verify_dice.py");
    let check = |page: serde_json::Value| {
        let file = dir.path().join("events.json");
        std::fs::write(&file, page.to_string()).expect("written");
        Command::new("python3").arg(script).arg("--events").arg(&file).output().expect("python3 runs")
    };
    let honest = check(page(&events));
    assert!(honest.status.success(), "{}", String::from_utf8_lossy(&honest.stdout));

    let mut tampered = events.clone();
    let resolved = tampered.iter_mut().find(|e| e.event_type == "coalition.BattleResolved").expect("resolved");
    let mut data = resolved.data.to_value();
    let value = data.pointer_mut("/dice/b/2/draw/value").expect("a die");
    *value = serde_json::json!(value.as_u64().expect("a number") % 20 + 1);
    resolved.data = data.into();
    let caught = check(page(&tampered));
    assert!(!caught.status.success(), "a changed die is caught by the outsider's checker");
}

/// Two resolved battles (seeds revealed) in a fresh data directory.
fn two_battles() -> (tempfile::TempDir, Vec<String>) {
    let dir = tempfile::tempdir().expect("temp dir");
    let store: Arc<dyn EventStore> = Arc::new(SledStore::open(dir.path()).expect("store"));
    let catalog = Arc::new(Catalog::rebuild(store.as_ref()).expect("catalog"));
    let service = Service::new(store, catalog);
    let streams = vec![support::play_battle(&service), support::play_battle(&service)];
    (dir, streams)
}

fn herald(args: &[&str], dir: &std::path::Path) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_herald"))
        .args(args)
        .arg("--data-dir")
        .arg(dir)
        .env_remove("HERALD_TOKEN")
        .output()
        .expect("herald runs")
}

/// `herald serve` on a free port over `dir`, ready; stopped when dropped.
struct Server {
    child: std::process::Child,
    port: u16,
    url: String,
}

impl Server {
    fn start(dir: &std::path::Path, admin: &str) -> Self {
        let port =
            std::net::TcpListener::bind("127.0.0.1:0").and_then(|l| l.local_addr()).map(|a| a.port()).expect("a port");
        let child = Command::new(env!("CARGO_BIN_EXE_herald"))
            .args(["serve", "--port", &port.to_string(), "--data-dir"])
            .arg(dir)
            .env("HERALD_ADMIN_TOKEN", admin)
            .env("RUST_LOG", "error")
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .expect("herald starts");
        let server = Self { child, port, url: format!("http://127.0.0.1:{port}") };
        let ready = (0..2000).any(|_| {
            std::thread::sleep(std::time::Duration::from_millis(10));
            reqwest::blocking::get(format!("{}/readyz", server.url)).is_ok_and(|r| r.status().is_success())
        });
        assert!(ready, "the server never became ready");
        server
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[test]
fn herald_verify_all_verifies_every_stream_and_sums_up() {
    let (dir, _) = two_battles();
    let output = herald(&["verify", "--all"], dir.path());
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}{}", String::from_utf8_lossy(&output.stderr));
    assert!(
        stdout.contains("2 streams: 2 verified, 0 partial (keys still sealed), 0 differ, 0 sealed to you, 0 failed"),
        "{stdout}"
    );
}

#[test]
fn herald_verify_asks_for_what_to_verify() {
    let dir = tempfile::tempdir().expect("temp dir");
    let output = herald(&["verify"], dir.path());
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(stderr.contains("--campaign") && stderr.contains("--all"), "{stderr}");
}

/// While a server holds the log: the command line says so and how to go through the server,
/// `--url` verifies through it, and a second server on the same port says the port is taken.
#[test]
fn while_the_server_runs_the_command_line_goes_through_it() {
    let (dir, streams) = two_battles();
    let server = Server::start(dir.path(), "hrd_cli-test-admin");
    let (port, url) = (server.port, server.url.clone());

    let locked = herald(&["verify", "--all"], dir.path());
    let stderr = String::from_utf8_lossy(&locked.stderr);
    assert_eq!(locked.status.code(), Some(1), "{stderr}");
    assert!(stderr.contains("a running herald server holds it") && stderr.contains("--url"), "{stderr}");

    let through = herald(&["verify", "--all", "--url", &url], dir.path());
    let stdout = String::from_utf8_lossy(&through.stdout);
    assert!(through.status.success(), "{stdout}{}", String::from_utf8_lossy(&through.stderr));
    assert!(stdout.contains("2 streams: 2 verified"), "{stdout}");
    let one = herald(&["verify", &streams[0], "--url", &url], dir.path());
    let report: serde_json::Value = serde_json::from_slice(&one.stdout).expect("a JSON report");
    assert_eq!(report["result"], "verified", "{report}");

    // A backup while it runs, restored into a new log that verifies.
    let backup = dir.path().with_extension("backup.ndjson.gz");
    let backup_arg = backup.to_str().expect("a UTF-8 path");
    let refused = herald(&["export", backup_arg, "--url", &url], dir.path());
    assert!(!refused.status.success() && !backup.exists(), "no token, no backup");
    let exported = herald(&["export", backup_arg, "--url", &url, "--token", "hrd_cli-test-admin"], dir.path());
    let stdout = String::from_utf8_lossy(&exported.stdout);
    assert!(exported.status.success(), "{stdout}{}", String::from_utf8_lossy(&exported.stderr));
    assert!(stdout.contains("checksum verified"), "{stdout}");
    let restored = tempfile::tempdir().expect("temp dir");
    let imported = herald(&["import", backup_arg], restored.path());
    assert!(imported.status.success(), "{}", String::from_utf8_lossy(&imported.stderr));
    let verified = herald(&["verify", "--all"], restored.path());
    assert!(String::from_utf8_lossy(&verified.stdout).contains("2 streams: 2 verified"), "{verified:?}");
    let _ = std::fs::remove_file(&backup);

    let other = tempfile::tempdir().expect("temp dir");
    let busy = herald(&["serve", "--port", &port.to_string()], other.path());
    let stderr = String::from_utf8_lossy(&busy.stderr);
    assert!(!busy.status.success());
    assert!(stderr.contains("already in use") && stderr.contains("--port"), "{stderr}");

    drop(server);
}

#[test]
fn each_subcommand_lists_only_its_own_options() {
    let help = |args: &[&str]| {
        let output = Command::new(env!("CARGO_BIN_EXE_herald")).args(args).output().expect("herald runs");
        assert!(output.status.success(), "{args:?}");
        String::from_utf8_lossy(&output.stdout).into_owned()
    };
    let verify = help(&["verify", "--help"]);
    assert!(verify.contains("--campaign") && verify.contains("--data-dir"), "{verify}");
    for serving in ["--port", "--bind", "--cors-origin", "--admin-token", "--max-live-readers"] {
        assert!(!verify.contains(serving), "verify --help lists {serving}: {verify}");
    }
    let serve = help(&["serve", "--help"]);
    assert!(serve.contains("--port") && serve.contains("--data-dir"), "{serve}");
    assert!(!serve.contains("--campaign"), "{serve}");
    let openapi = help(&["openapi", "--help"]);
    assert!(!openapi.contains("--data-dir"), "{openapi}");
}

#[test]
fn herald_rebuild_folds_the_log_and_saves_the_read_models() {
    let (dir, _) = two_battles();
    let output = herald(&["rebuild"], dir.path());
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "{stdout}{}", String::from_utf8_lossy(&output.stderr));
    assert!(stdout.contains("of 2 streams") && stdout.contains("read models saved"), "{stdout}");
    let saved = std::fs::read_dir(dir.path().join("read-models")).expect("saved").count();
    assert!(saved > 0, "a snapshot file in read-models/");
}

/// `herald verify --campaign`: the campaign and the battle its turn announced, through the
/// running server and then from the log.
#[test]
fn herald_verify_campaign_checks_the_campaign_and_the_battles_it_announced() {
    use serde_json::json;
    let dir = tempfile::tempdir().expect("temp dir");
    let admin = "hrd_cli-campaign-admin";
    let server = Server::start(dir.path(), admin);
    let url = server.url.clone();
    let client = reqwest::blocking::Client::new();
    let post = |path: &str, token: &str, body: serde_json::Value| -> serde_json::Value {
        let response = client.post(format!("{url}{path}")).bearer_auth(token).json(&body).send().expect("answered");
        let status = response.status();
        let body: serde_json::Value = response.json().unwrap_or_default();
        assert!(status.is_success(), "POST {path}: {status} {body}");
        body
    };
    let token = |player: &str| {
        post("/v1/tokens", admin, json!({"role": "player", "player": player}))["token"]
            .as_str()
            .expect("a token")
            .to_string()
    };
    let (alice, bob) = (token("alice"), token("bob"));
    let army = |name: &str, team: &str, colors: serde_json::Value, creature: &str, color: &str| {
        json!({"name": name, "team": team, "rank": "cpl_lt_commander", "colors": colors,
               "troops": [{"creature": creature, "colors": [color], "power": 1, "toughness": 1, "slot": 0, "full": 5000, "troops": 4000}]})
    };
    let created = post(
        "/v1/campaigns",
        admin,
        json!({
            "name": "Round 1",
            "map": {"bounds": {"columns": 14, "rows": 38}, "default_terrain": "plains"},
            "armies": [
                {"army": army("Sai Rei", "coalition", json!(["red", "green", "blue"]), "Kris Mage", "red"), "controllers": ["alice"], "start": {"by": "square", "square": "5E"}},
                {"army": army("Plague Host", "phyrexia", json!([]), "Phyrexian Broodling", "black"), "controllers": ["bob"], "start": {"by": "square", "square": "9E"}}
            ],
            "options": {"enforce_army_counts": false, "enforce_site_counts": false}
        }),
    );
    let campaign = created["stream"].as_str().expect("a stream").to_string();
    let deadline = (Utc::now() + chrono::Duration::days(1)).to_rfc3339();
    post(&format!("/v1/campaigns/{campaign}/turns"), admin, json!({"deadline": deadline}));
    post(&format!("/v1/campaigns/{campaign}/orders"), &alice, json!({"text": "Sai Rei: 5E > 8E"}));
    post(&format!("/v1/campaigns/{campaign}/orders"), &bob, json!({"text": "Plague Host: 9E > 8E"}));
    post(&format!("/v1/campaigns/{campaign}/lock"), admin, json!({}));
    post(&format!("/v1/campaigns/{campaign}/adjudicate"), admin, json!({}));

    let through = herald(&["verify", "--campaign", &campaign, "--url", &url, "--token", admin], dir.path());
    let stdout = String::from_utf8_lossy(&through.stdout);
    assert!(through.status.success(), "{stdout}{}", String::from_utf8_lossy(&through.stderr));
    assert!(stdout.contains("2 streams: 2 verified"), "the campaign and its battle: {stdout}");
    drop(server);

    let local = herald(&["verify", "--campaign", &campaign], dir.path());
    let stdout = String::from_utf8_lossy(&local.stdout);
    assert!(local.status.success(), "{stdout}{}", String::from_utf8_lossy(&local.stderr));
    assert!(stdout.contains("2 streams: 2 verified"), "{stdout}");
}

/// A tmpfs of `size` on a fresh directory (root only: `None`, saying why, elsewhere but on CI).
fn mount_tmpfs(size: &str) -> Option<(tempfile::TempDir, std::path::PathBuf)> {
    let parent = tempfile::tempdir().expect("temp dir");
    let disk = parent.path().join("disk");
    std::fs::create_dir(&disk).expect("mount point");
    let status =
        Command::new("mount").args(["-t", "tmpfs", "-o", &format!("size={size}"), "tmpfs"]).arg(&disk).status();
    match status {
        Ok(status) if status.success() => Some((parent, disk)),
        other => {
            assert!(std::env::var_os("CI").is_none(), "CI runs as root and must run this test: mount said {other:?}");
            eprintln!("SKIPPED: mounting a tmpfs needs root (mount said {other:?}); CI runs this test as root");
            None
        }
    }
}

// Issue 27, item 3: an import is all or nothing.
#[test]
fn an_import_that_fails_on_a_full_disk_leaves_nothing_and_the_next_import_works() {
    let (source, _) = two_battles();
    let export_dir = tempfile::tempdir().expect("temp dir");
    let file = export_dir.path().join("backup.ndjson.gz");
    let exported = herald(&["export", file.to_str().expect("a path")], source.path());
    assert!(exported.status.success(), "{}", String::from_utf8_lossy(&exported.stderr));
    let Some((_parent, disk)) = mount_tmpfs("4m") else { return };
    // The disk is full: a file takes every byte.
    {
        use std::io::Write;
        let mut filler = std::fs::File::create(disk.join("filler")).expect("filler");
        while filler.write_all(&[0u8; 4096]).and_then(|()| filler.sync_all()).is_ok() {}
        while filler.write_all(&[0u8; 64]).and_then(|()| filler.sync_all()).is_ok() {}
    }
    let target = disk.join("restored");
    let failed = Command::new(env!("CARGO_BIN_EXE_herald"))
        .args(["import", file.to_str().expect("a path"), "--data-dir"])
        .arg(&target)
        .output()
        .expect("herald runs");
    let stderr = String::from_utf8_lossy(&failed.stderr);
    let unmount = || drop(Command::new("umount").arg("-l").arg(&disk).status());
    if failed.status.success() {
        unmount();
        panic!("a full disk cannot hold the import: {stderr}");
    }
    let left: Vec<_> = std::fs::read_dir(&disk).expect("the disk").map(|e| e.expect("entry").file_name()).collect();
    unmount();
    assert!(stderr.contains("nothing was imported"), "{stderr}");
    assert_eq!(left, ["filler"], "the failed import left nothing");
    // The same import, where there is room: all of it.
    let room = tempfile::tempdir().expect("temp dir");
    let target = room.path().join("restored");
    let imported = Command::new(env!("CARGO_BIN_EXE_herald"))
        .args(["import", file.to_str().expect("a path"), "--data-dir"])
        .arg(&target)
        .output()
        .expect("herald runs");
    assert!(imported.status.success(), "{}", String::from_utf8_lossy(&imported.stderr));
    let left: Vec<_> = std::fs::read_dir(room.path()).expect("dir").map(|e| e.expect("entry").file_name()).collect();
    assert_eq!(left, ["restored"], "nothing but the imported log");
    let verified = herald(&["verify", "--all"], &target);
    assert!(verified.status.success(), "{}", String::from_utf8_lossy(&verified.stdout));
}
