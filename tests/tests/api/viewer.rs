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
