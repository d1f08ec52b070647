//! Standard Webhooks signatures: `webhook-signature: v1,<base64 HMAC-SHA256>` over
//! `<webhook-id>.<webhook-timestamp>.<body>`, keyed with the base64-decoded part of the
//! `whsec_` secret; during a rotation's overlap, one `v1,` signature per secret, space-separated.

use base64::{engine::general_purpose::STANDARD, Engine};
use hmac::{Hmac, KeyInit, Mac};
use sha2_11::Sha256;

/// The signature of one message with one secret (`v1,<base64>`); `None` for a secret that is
/// not `whsec_` + base64 (Herald generates none such).
pub fn signature(secret: &str, id: &str, timestamp: i64, body: &[u8]) -> Option<String> {
    let key = STANDARD.decode(secret.strip_prefix("whsec_").unwrap_or(secret)).ok()?;
    let mut mac = Hmac::<Sha256>::new_from_slice(&key).ok()?;
    mac.update(id.as_bytes());
    mac.update(b".");
    mac.update(timestamp.to_string().as_bytes());
    mac.update(b".");
    mac.update(body);
    Some(format!("v1,{}", STANDARD.encode(mac.finalize().into_bytes())))
}

/// The `webhook-signature` header: every secret's signature, space-separated.
pub fn header<'a>(secrets: impl IntoIterator<Item = &'a str>, id: &str, timestamp: i64, body: &[u8]) -> String {
    secrets.into_iter().filter_map(|secret| signature(secret, id, timestamp, body)).collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The test vector of the Standard Webhooks reference libraries (their `test_sign_function`).
    #[test]
    fn signs_the_reference_libraries_test_vector() {
        let secret = "whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw";
        let id = "msg_p5jXN8AQM9LWM0D4loKWxJek";
        let timestamp = 1614265330;
        let body = br#"{"test": 2432232314}"#;
        assert_eq!(
            signature(secret, id, timestamp, body).as_deref(),
            Some("v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=")
        );
        let both = header([secret, secret], id, timestamp, body);
        assert_eq!(both.split(' ').count(), 2);
    }
}
