//! The `herald` binary: serve the API, print the OpenAPI spec, verify a stream.

fn main() -> std::process::ExitCode {
    herald_api::allocator::tune();
    herald_api::cli::run()
}
