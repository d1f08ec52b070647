//! Where a webhook may be sent: `https` only unless the host's settings allow plain http or the
//! target's host; never to a private, loopback, link-local or otherwise internal address unless
//! the host is allowed by name. The address is resolved once per attempt and the request is
//! sent to that very address (so a DNS answer cannot change between the check and the connect).

use std::net::{IpAddr, SocketAddr, ToSocketAddrs};

use super::WebhookSettings;

/// Why a target is refused.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum TargetError {
    /// Not a URL, or not http(s), or with credentials.
    #[error("{0}")]
    Malformed(String),
    /// Plain http to a host not allowed by the settings.
    #[error("{0} is plain http; targets must be https (a host allows http with --webhook-allow-http or --webhook-allow-host)")]
    Insecure(String),
    /// The host does not resolve.
    #[error("{host} does not resolve: {error}")]
    Unresolvable {
        /// The host.
        host: String,
        /// The resolver's answer.
        error: String,
    },
    /// The host resolves to an internal address.
    #[error("{host} resolves to {address}, a private, loopback or link-local address (allow the host with --webhook-allow-host)")]
    Internal {
        /// The host.
        host: String,
        /// The address refused.
        address: IpAddr,
    },
}

/// A checked target: the URL, its host and the address to connect to.
#[derive(Debug, Clone)]
pub struct Target {
    /// The URL.
    pub url: reqwest::Url,
    /// Its host as written.
    pub host: String,
    /// The address it resolved to, checked.
    pub address: SocketAddr,
}

/// Whether `address` is one no webhook goes to unless its host is allowed by name: loopback,
/// private (RFC 1918, unique local), link-local, shared (CGNAT), unspecified, multicast,
/// broadcast, documentation, IPv4-mapped forms of those.
pub fn is_internal(address: IpAddr) -> bool {
    match address {
        IpAddr::V4(v4) => {
            let [a, b, ..] = v4.octets();
            v4.is_loopback()
                || v4.is_private()
                || v4.is_link_local()
                || v4.is_unspecified()
                || v4.is_multicast()
                || v4.is_broadcast()
                || v4.is_documentation()
                || a == 0
                || (a == 100 && (64..128).contains(&b))
                || (a == 192 && b == 0)
                || a >= 240
        }
        IpAddr::V6(v6) => {
            if let Some(v4) = v6.to_ipv4_mapped() {
                return is_internal(IpAddr::V4(v4));
            }
            let first = v6.segments()[0];
            v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_multicast()
                || (first & 0xfe00) == 0xfc00
                || (first & 0xffc0) == 0xfe80
                || first == 0x2001 && v6.segments()[1] == 0x0db8
        }
    }
}

/// Check the URL's form (scheme, host, no credentials) against the settings.
pub fn check_url(url: &str, settings: &WebhookSettings) -> Result<(reqwest::Url, String), TargetError> {
    let parsed =
        reqwest::Url::parse(url).map_err(|error| TargetError::Malformed(format!("{url:?} is no URL: {error}")))?;
    let host = parsed
        .host_str()
        .map(|host| host.trim_start_matches('[').trim_end_matches(']').to_string())
        .ok_or_else(|| TargetError::Malformed(format!("{url:?} names no host")))?;
    if !parsed.username().is_empty() || parsed.password().is_some() {
        return Err(TargetError::Malformed("a target URL carries no credentials".into()));
    }
    let allowed = settings.allow_hosts.iter().any(|allowed| allowed.eq_ignore_ascii_case(&host));
    match parsed.scheme() {
        "https" => {}
        "http" if settings.allow_http || allowed => {}
        "http" => return Err(TargetError::Insecure(url.to_string())),
        other => return Err(TargetError::Malformed(format!("{other}: is not http(s)"))),
    }
    Ok((parsed, host))
}

/// Check a target and resolve it to the address to connect to (blocking: DNS).
pub fn resolve(url: &str, settings: &WebhookSettings) -> Result<Target, TargetError> {
    let (parsed, host) = check_url(url, settings)?;
    let allowed = settings.allow_hosts.iter().any(|allowed| allowed.eq_ignore_ascii_case(&host));
    let port = parsed.port_or_known_default().unwrap_or(443);
    let addresses: Vec<SocketAddr> = (host.as_str(), port)
        .to_socket_addrs()
        .map_err(|error| TargetError::Unresolvable { host: host.clone(), error: error.to_string() })?
        .collect();
    if addresses.is_empty() {
        return Err(TargetError::Unresolvable { host, error: "no address".into() });
    }
    if !allowed {
        if let Some(internal) = addresses.iter().find(|address| is_internal(address.ip())) {
            return Err(TargetError::Internal { host, address: internal.ip() });
        }
    }
    Ok(Target { url: parsed, host, address: addresses[0] })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn internal_addresses_are_recognised() {
        for internal in [
            "127.0.0.1",
            "10.1.2.3",
            "172.16.0.1",
            "192.168.1.1",
            "169.254.169.254",
            "100.64.0.1",
            "0.0.0.0",
            "::1",
            "fe80::1",
            "fd00::1",
            "::ffff:10.0.0.1",
        ] {
            assert!(is_internal(internal.parse().expect("an address")), "{internal}");
        }
        for public in ["93.184.216.34", "2606:4700::1111", "1.1.1.1"] {
            assert!(!is_internal(public.parse().expect("an address")), "{public}");
        }
    }

    #[test]
    fn http_and_loopback_need_the_settings() {
        let strict = WebhookSettings::default();
        assert!(matches!(check_url("http://example.org/hook", &strict), Err(TargetError::Insecure(_))));
        assert!(matches!(resolve("https://127.0.0.1:9/hook", &strict), Err(TargetError::Internal { .. })));
        assert!(matches!(check_url("ftp://example.org/", &strict), Err(TargetError::Malformed(_))));
        assert!(matches!(check_url("https://u:p@example.org/", &strict), Err(TargetError::Malformed(_))));
        let loopback = WebhookSettings { allow_http: false, allow_hosts: vec!["127.0.0.1".into()] };
        let target = resolve("http://127.0.0.1:9/hook", &loopback).expect("allowed by name");
        assert_eq!(target.address, "127.0.0.1:9".parse().expect("an address"));
    }
}
