//! The server starts, answers health checks and serves its OpenAPI document and Swagger UI.

use herald_tests::spawn_app;

#[tokio::test]
async fn health_readiness_and_docs_answer_on_a_fresh_server() {
    let app = spawn_app().await;
    assert_eq!(app.request("GET", "/healthz", None, None).await.status, 200);
    let ready = app.request("GET", "/readyz", None, None).await;
    assert_eq!(ready.status, 200, "{:?}", ready.body);
    let spec = app.request("GET", "/openapi.json", None, None).await;
    assert_eq!(spec.status, 200);
    assert!(spec.body["openapi"].as_str().unwrap_or_default().starts_with("3.1"));
    let docs = app.request("GET", "/docs/", None, None).await;
    assert_eq!(docs.status, 200);
    assert!(docs.body.as_str().unwrap_or_default().contains("swagger"), "Swagger UI is served offline");
    app.stop().await;
}
