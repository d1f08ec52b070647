//! Rendered views, kept by what they depend on.
//!
//! A stream's current view is a pure function of its folded state, its version and who reads it
//! (the ruleset's `view` takes nothing else: no clock, no other stream), so the JSON rendered for
//! one `(stream, version, reader)` is the JSON of every later request with the same key until the
//! stream moves on. Keeping the bytes spares the rendering and the serialisation on every read of
//! a busy battle (issue 13, goal 5: a view GET at ≥ 0.5× the rate of `/healthz`). A new version is
//! a new key; the old ones age out of the cache, which is bounded by bytes.

use actix_web::web::Bytes;
use herald_domain::{Role, Viewer};
use quick_cache::{sync::Cache, Weighter};

/// What a rendered view depends on.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ViewKey {
    stream: String,
    version: u64,
    role: Role,
    player: Option<String>,
    /// Which rendering of the stream (`view`, a picture's name).
    kind: &'static str,
}

impl ViewKey {
    /// The key of `kind` of `stream` at `version` as `viewer` sees it.
    pub fn new(stream: &str, version: u64, viewer: &Viewer, kind: &'static str) -> Self {
        Self { stream: stream.to_string(), version, role: viewer.role.clone(), player: viewer.player.clone(), kind }
    }
}

#[derive(Debug, Clone)]
struct ByBytes;

impl Weighter<ViewKey, Bytes> for ByBytes {
    fn weight(&self, key: &ViewKey, value: &Bytes) -> u64 {
        (key.stream.len() + value.len() + 64) as u64
    }
}

/// Rendered views, bounded by their total size.
pub struct Views {
    cache: Cache<ViewKey, Bytes, ByBytes>,
}

/// The default bound: 16 MiB of rendered JSON. The views read again are the current ones; at 64 MiB
/// the cache alone held the live server at 1.76x the same log restarted in the 3-minute soak, at
/// 16 MiB 1.29x (docs/PERFORMANCE.md "What held the memory").
pub const DEFAULT_BYTES: u64 = 16 * 1024 * 1024;

impl Views {
    /// A cache of at most `bytes` of rendered views.
    pub fn new(bytes: u64) -> Self {
        // quick_cache sizes its shards by an estimate of the number of items.
        let items = usize::try_from(bytes / 4096).unwrap_or(usize::MAX).max(16);
        Self { cache: Cache::with_weighter(items, bytes, ByBytes) }
    }

    /// How many rendered views are kept.
    pub fn len(&self) -> usize {
        self.cache.len()
    }

    /// Whether none is kept.
    pub fn is_empty(&self) -> bool {
        self.cache.is_empty()
    }

    /// The bytes they hold (the weight the bound applies to: the JSON, the stream's name and
    /// 64 bytes for the key).
    pub fn bytes(&self) -> u64 {
        self.cache.weight()
    }

    /// The bound on [`Views::bytes`].
    pub fn capacity(&self) -> u64 {
        self.cache.capacity()
    }

    /// The view under `key`, rendered by `render` if it is not kept yet.
    pub fn get_or_render<E>(&self, key: ViewKey, render: impl FnOnce() -> Result<Bytes, E>) -> Result<Bytes, E> {
        if let Some(bytes) = self.cache.get(&key) {
            return Ok(bytes);
        }
        let bytes = render()?;
        self.cache.insert(key, bytes.clone());
        Ok(bytes)
    }
}

impl std::fmt::Debug for Views {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Views").field("len", &self.cache.len()).field("weight", &self.cache.weight()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_view_is_rendered_once_per_version_and_reader() {
        let views = Views::new(DEFAULT_BYTES);
        let mut renders = 0;
        let mut get = |version, viewer: &Viewer| {
            views
                .get_or_render::<()>(ViewKey::new("battle-1", version, viewer, "view"), || {
                    renders += 1;
                    Ok(Bytes::from(format!("{version}:{:?}", viewer.role)))
                })
                .unwrap_or_default()
        };
        let judge = Viewer { role: Role::Judge, player: None };
        assert_eq!(get(1, &Viewer::public()), get(1, &Viewer::public()));
        assert_ne!(get(1, &Viewer::public()), get(1, &judge), "a judge's view is another key");
        assert_eq!(get(2, &Viewer::public()), Bytes::from("2:Observer"), "a new version is rendered afresh");
        assert_eq!(renders, 3);
    }

    #[test]
    fn the_cache_keeps_within_its_bound() {
        let views = Views::new(64 * 1024);
        for version in 0..1000 {
            let key = ViewKey::new("battle-1", version, &Viewer::public(), "view");
            let _ = views.get_or_render::<()>(key, || Ok(Bytes::from(vec![b'x'; 1024])));
        }
        assert!(views.bytes() <= views.capacity() && views.capacity() == 64 * 1024, "{views:?}");
        assert!(views.len() >= 32, "the cache keeps what fits: {views:?}");
    }

    #[test]
    fn a_cache_of_no_bytes_keeps_nothing_and_still_answers() {
        let views = Views::new(0);
        for version in 0..10 {
            let key = ViewKey::new("battle-1", version, &Viewer::public(), "view");
            let bytes = views.get_or_render::<()>(key, || Ok(Bytes::from(version.to_string())));
            assert_eq!(bytes, Ok(Bytes::from(version.to_string())));
        }
        assert_eq!((views.len(), views.bytes()), (0, 0), "{views:?}");
    }
}
