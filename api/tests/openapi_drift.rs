//! `openapi/openapi.json` is generated: it must equal what `herald openapi` prints.

#[test]
fn committed_openapi_document_matches_the_generated_one() {
    let committed = include_str!("../../openapi/openapi.json");
    let generated = herald_api::openapi::spec_json();
    assert!(
        committed.trim_end() == generated.trim_end(),
        "openapi/openapi.json is stale: run `cargo run --bin herald -- openapi > openapi/openapi.json`"
    );
}

#[test]
fn herald_openapi_prints_the_committed_document() {
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_herald")).arg("openapi").output().expect("herald runs");
    assert!(output.status.success());
    let printed = String::from_utf8(output.stdout).expect("utf-8");
    assert_eq!(printed.trim_end(), include_str!("../../openapi/openapi.json").trim_end());
}

#[test]
fn every_operation_documents_its_responses_and_the_spec_is_openapi_3_1() {
    let spec: serde_json::Value = serde_json::from_str(&herald_api::openapi::spec_json()).expect("JSON");
    assert!(spec["openapi"].as_str().is_some_and(|v| v.starts_with("3.1")));
    let paths = spec["paths"].as_object().expect("paths");
    for (path, operations) in paths {
        for (method, operation) in operations.as_object().expect("operations") {
            let responses = operation["responses"].as_object().expect("responses");
            assert!(!responses.is_empty(), "{method} {path} documents no responses");
            let writes = method == "post";
            if writes {
                for status in ["401", "403"] {
                    assert!(responses.contains_key(status), "{method} {path} does not document {status}");
                }
            }
        }
    }
}
