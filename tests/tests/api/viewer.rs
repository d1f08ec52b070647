//! The web viewer (`/`): served by Herald itself from files embedded in the binary, every file
//! under `api/viewer/` listed, with a strict Content-Security-Policy and revalidation by ETag.

use herald_api::routes::viewer::ASSETS;
use herald_tests::spawn_app;

fn files_under(dir: &std::path::Path, prefix: &str, out: &mut Vec<String>) {
    for entry in std::fs::read_dir(dir).expect("the viewer's folder") {
        let entry = entry.expect("an entry");
        let name = format!("{prefix}{}", entry.file_name().to_string_lossy());
        if entry.path().is_dir() {
            files_under(&entry.path(), &format!("{name}/"), out);
        } else {
            out.push(name);
        }
    }
}

#[test]
fn every_file_of_the_viewer_is_embedded() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../api/viewer");
    let mut on_disk = Vec::new();
    files_under(&dir, "", &mut on_disk);
    on_disk.sort();
    let mut embedded: Vec<String> = ASSETS.iter().map(|asset| asset.path.to_string()).collect();
    embedded.sort();
    assert_eq!(embedded, on_disk, "list every file of api/viewer/ in api/src/routes/viewer.rs");
}

#[tokio::test]
async fn the_root_serves_the_viewer_with_a_strict_content_security_policy() {
    let app = spawn_app().await;
    let reply = app.request("GET", "/", None, None).await;
    assert_eq!(reply.status, 200);
    assert!(reply.header("content-type").unwrap_or_default().starts_with("text/html"));
    let page = reply.body.as_str().unwrap_or_default().to_string();
    assert!(page.contains(r#"<script type="module" src="/viewer/app.js">"#), "{page}");
    let policy = reply.header("content-security-policy").unwrap_or_default();
    assert!(policy.contains("default-src 'self'") && policy.contains("script-src 'self'"), "{policy}");
    assert_eq!(reply.header("x-content-type-options").as_deref(), Some("nosniff"));
}

#[tokio::test]
async fn every_asset_is_served_with_its_type_and_revalidates_by_etag() {
    let app = spawn_app().await;
    for asset in ASSETS {
        let path = format!("/viewer/{}", asset.path);
        let reply = app.request("GET", &path, None, None).await;
        assert_eq!(reply.status, 200, "{path}");
        assert_eq!(reply.header("content-type").as_deref(), Some(asset.content_type), "{path}");
        let etag = reply.header("etag").expect("an ETag");
        let again = app.request_with("GET", &path, None, None, &[("if-none-match", &etag)]).await;
        assert_eq!(again.status, 304, "{path}");
    }
    let missing = app.request("GET", "/viewer/nothing.js", None, None).await;
    assert_eq!(missing.status, 404);
    assert_eq!(missing.body["code"], "not_found");
}

#[tokio::test]
async fn the_viewer_reads_only_public_routes_and_no_cdn() {
    // Every URL the page fetches or loads is Herald's own: no scheme, no host.
    for asset in ASSETS {
        for forbidden in ["http://", "https://", "//cdn", "unpkg", "jsdelivr"] {
            let hits: Vec<&str> = asset.body.lines().filter(|line| line.contains(forbidden)).collect();
            let allowed = hits.iter().all(|line| line.contains("xmlns") || line.trim_start().starts_with("//"));
            assert!(allowed, "{} loads from outside Herald: {hits:?}", asset.path);
        }
    }
}

/// The lists the viewer's first page reads carry what it shows (issue 31 item 1): a round's
/// players and dates, a battle's dates; no stream has to be fetched for them.
#[tokio::test]
async fn the_viewer_lists_name_players_and_dates_of_rounds_and_battles() {
    let app = spawn_app().await;
    let cast = crate::support::Cast::issue(&app).await;
    let (round, _) = crate::campaign::create(&app, &cast).await;
    let battle = crate::support::create_sample(&app, &cast).await;
    crate::support::prepare(&app, &cast, &battle).await;

    let rounds = app.request("GET", "/v1/campaigns", None, None).await;
    assert_eq!(rounds.status, 200);
    let listed = rounds.body.as_array().expect("a list").iter().find(|r| r["stream"] == format!("campaign-{round}"));
    let listed = listed.expect("the round is listed");
    let mut players: Vec<&str> =
        listed["players"].as_array().expect("players").iter().filter_map(serde_json::Value::as_str).collect();
    players.sort_unstable();
    assert_eq!(players, ["alice", "bob"], "{listed:#}");
    assert!(listed["name"].is_string() && listed["turn"].is_number(), "the round's own fields stay: {listed:#}");
    let (created, last) = (dated(&listed["created_at"]), dated(&listed["last_event_at"]));
    assert!(created <= last, "{listed:#}");

    let battles = app.request("GET", "/v1/battles", None, None).await;
    let listed = battles.body.as_array().expect("a list").iter().find(|b| b["id"] == battle.id.as_str());
    let listed = listed.expect("the battle is listed");
    let (created, last) = (dated(&listed["created_at"]), dated(&listed["last_event_at"]));
    assert!(created < last, "six events after the one that opened it: {listed:#}");
    let view = app.request("GET", &battle.path(), Some(&cast.judge), None).await;
    assert_eq!(listed["version"], view.body["version"]);
}

fn dated(value: &serde_json::Value) -> chrono::DateTime<chrono::Utc> {
    value.as_str().and_then(|text| text.parse().ok()).unwrap_or_else(|| panic!("a date, not {value}"))
}

/// A battle's sheets (issue 31 item 2): the coalition army roster slot by slot, at any version,
/// with the losses once the battle is resolved; sealed strategies never on it.
#[tokio::test]
async fn a_battle_is_read_as_its_army_roster_at_any_version() {
    let app = spawn_app().await;
    let cast = crate::support::Cast::issue(&app).await;
    let battle = crate::support::create_sample(&app, &cast).await;
    crate::support::prepare(&app, &cast, &battle).await;

    let before = app.request("GET", &battle.at("/sheet?at=0"), None, None).await;
    assert_eq!(before.status, 200, "{:#}", before.body);
    assert_eq!(before.header("etag").as_deref(), Some("\"0\""));
    let sheet = &before.body;
    assert_eq!(sheet["kind"], "army roster");
    let groups = sheet["groups"].as_array().expect("groups");
    assert_eq!(groups.iter().map(|g| g["mark"].as_str().unwrap_or_default()).collect::<Vec<_>>(), ["A", "B"]);
    let card = &groups[0]["cards"][0];
    let table = card["sections"].as_array().expect("sections").iter().find(|s| s["kind"] == "table").expect("slots");
    assert_eq!(table["columns"][1], "creature");
    assert!(table["rows"].as_array().is_some_and(|rows| !rows.is_empty()), "{table:#}");
    let text = sheet.to_string();
    assert!(!text.contains(crate::support::STRATEGY_A), "no strategy on a roster");

    crate::support::resolve(&app, &cast, &battle).await;
    let after = app.request("GET", &battle.at("/sheet"), None, None).await;
    let rows = after.body["groups"][0]["cards"][0]["sections"][1]["rows"].as_array().expect("slot rows").clone();
    for row in rows {
        let [troops, lost, left] = [4, 5, 6].map(|i| row[i].as_str().and_then(|n| n.parse::<u64>().ok()));
        let (troops, lost, left) = (troops.expect("troops"), lost.expect("lost"), left.expect("left"));
        assert_eq!(troops - lost, left, "{row}");
    }

    let missing = app.request("GET", &battle.at("/sheet?at=99"), None, None).await;
    assert_eq!(missing.status, 404);
}

/// Every tactical ruleset's sheets come through the same route in the same shape: warmachine's
/// model cards carry a warjack's damage grid box by box.
#[tokio::test]
async fn warmachine_model_cards_carry_the_damage_grid() {
    let app = spawn_app().await;
    let cast = crate::support::Cast::issue(&app).await;
    let battle = crate::support::create(&app, &cast.judge, crate::warmachine::battle()).await;
    let sheet = app.request("GET", &battle.at("/sheet"), None, None).await;
    assert_eq!(sheet.status, 200, "{:#}", sheet.body);
    assert_eq!(sheet.body["kind"], "model cards");
    let groups = sheet.body["groups"].as_array().expect("groups");
    assert_eq!(groups.iter().map(|g| g["name"].as_str().unwrap_or_default()).collect::<Vec<_>>(), ["red", "blue"]);
    let cards: Vec<&serde_json::Value> = groups.iter().flat_map(|g| g["cards"].as_array().expect("cards")).collect();
    assert!(!cards.is_empty());
    let grids: Vec<&serde_json::Value> = cards
        .iter()
        .flat_map(|c| c["sections"].as_array().expect("sections").iter())
        .filter(|s| s["kind"] == "grid")
        .collect();
    assert_eq!(grids.len(), 4, "two warjacks a side");
    for grid in &grids {
        assert_eq!(grid["columns"].as_array().map(Vec::len), Some(6), "six columns: {grid:#}");
    }
    for card in &cards {
        let track =
            card["sections"].as_array().expect("sections").iter().find(|s| s["kind"] == "track").expect("damage");
        assert!(track["current"].as_u64() <= track["max"].as_u64(), "{card:#}");
    }
}
