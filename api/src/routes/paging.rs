//! Paging, the same way for every list (docs/API.md "Paging"): `limit` items from the one after
//! `after` (the cursor: the id of the last item of the previous page, in the list's stable
//! order), and a `Link: <…>; rel="next"` header when more follow. List bodies stay what they
//! were (a JSON array; the tokens' page object), so no client written before paging breaks: one
//! that never sends `limit` gets the first [`MAX_PAGE`] items, which was every item of any
//! list of that size.

use actix_web::{http::header, HttpRequest, HttpResponse, HttpResponseBuilder};

use crate::problem::ApiError;

/// The largest page: the documented maximum of `limit` on every paged list.
pub const MAX_PAGE: u32 = 1000;

/// One page of a list: its items, and the cursor of the next page when there is one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Page<T> {
    /// The items, in the list's order.
    pub items: Vec<T>,
    /// The `after` of the next page: the key of the last item, when more items follow.
    pub next: Option<String>,
}

/// The page size asked for, `default` when none: 1 to [`MAX_PAGE`], else a 400 naming `limit`.
pub fn limit(requested: Option<u32>, default: u32) -> Result<usize, ApiError> {
    let limit = requested.unwrap_or(default);
    if !(1..=MAX_PAGE).contains(&limit) {
        return Err(ApiError::Malformed(format!("query parameter `limit` must be 1 to {MAX_PAGE}, not {limit}")));
    }
    usize::try_from(limit).map_err(ApiError::internal)
}

/// Take one page of `items` (the whole list, in its stable order): skip to the item whose key is
/// `after` (a 404 naming `what` when no item has it), then take up to `limit` of the items
/// `keep` accepts. The cursor is looked for among all items, not only those `keep` accepts, so
/// a page whose last item has since stopped matching a filter (a battle that ended) still has a
/// next page.
pub fn page<T>(
    items: impl IntoIterator<Item = T>,
    key: impl Fn(&T) -> String,
    after: Option<&str>,
    limit: usize,
    mut keep: impl FnMut(&T) -> bool,
    what: &str,
) -> Result<Page<T>, ApiError> {
    let mut items = items.into_iter();
    if let Some(after) = after {
        if !items.by_ref().any(|item| key(&item) == after) {
            return Err(ApiError::NotFound(format!("no {what} {after} to list after (query parameter `after`)")));
        }
    }
    let mut matching = items.filter(|item| keep(item));
    let items: Vec<T> = matching.by_ref().take(limit).collect();
    let next = match matching.next() {
        Some(_) => items.last().map(&key),
        None => None,
    };
    Ok(Page { items, next })
}

/// A `200 OK` carrying the `Link: <…>; rel="next"` header when `next` is a cursor: the request's
/// own path and query with `cursor` (`after`; `from` for events) set to `next`, every other
/// parameter kept, all of them URL-encoded.
pub fn ok_with_link(req: &HttpRequest, cursor: &str, next: Option<&str>) -> HttpResponseBuilder {
    let mut response = HttpResponse::Ok();
    if let Some(next) = next {
        response.insert_header((header::LINK, next_link(req.path(), req.query_string(), cursor, next)));
    }
    response
}

/// The `Link` header value for the page after `next`.
fn next_link(path: &str, query: &str, cursor: &str, next: &str) -> String {
    let mut pairs = form_urlencoded::Serializer::new(String::new());
    for (name, value) in form_urlencoded::parse(query.as_bytes()) {
        if name != cursor {
            pairs.append_pair(&name, &value);
        }
    }
    pairs.append_pair(cursor, next);
    format!("<{path}?{}>; rel=\"next\"", pairs.finish())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn keys(page: &Page<u32>) -> Vec<u32> {
        page.items.clone()
    }

    #[test]
    fn pages_follow_the_cursor_to_the_end() {
        let all = [1_u32, 2, 3, 4, 5];
        let first = page(all, u32::to_string, None, 2, |_| true, "number").map_err(|e| e.to_string());
        assert_eq!(first, Ok(Page { items: vec![1, 2], next: Some("2".into()) }));
        let last = page(all, u32::to_string, Some("4"), 2, |_| true, "number").map_err(|e| e.to_string());
        assert_eq!(last, Ok(Page { items: vec![5], next: None }));
        let exact = page(all, u32::to_string, Some("3"), 2, |_| true, "number").map_err(|e| e.to_string());
        assert_eq!(exact, Ok(Page { items: vec![4, 5], next: None }), "no next page when nothing follows");
    }

    #[test]
    fn a_filter_applies_after_the_cursor_which_need_not_match_it() {
        let all = [1_u32, 2, 3, 4, 5, 6];
        let even = |n: &u32| [2, 4, 6].contains(n);
        let after_odd = page(all, u32::to_string, Some("3"), 1, even, "number").map_err(|e| e.to_string());
        assert_eq!(after_odd.map(|p| (keys(&p), p.next)), Ok((vec![4], Some("4".into()))));
        let last = page(all, u32::to_string, Some("4"), 5, even, "number").map_err(|e| e.to_string());
        assert_eq!(last.map(|p| (keys(&p), p.next)), Ok((vec![6], None)));
    }

    #[test]
    fn an_unknown_cursor_is_a_404_and_a_bad_limit_a_400() {
        let missing = page([1_u32, 2], u32::to_string, Some("9"), 2, |_| true, "number");
        assert!(matches!(missing, Err(ApiError::NotFound(detail)) if detail.contains("no number 9")));
        for bad in [0, MAX_PAGE + 1] {
            assert!(matches!(limit(Some(bad), 10), Err(ApiError::Malformed(detail)) if detail.contains("`limit`")));
        }
        assert_eq!(limit(None, 10).ok(), Some(10));
        assert_eq!(limit(Some(MAX_PAGE), 10).ok(), Some(1000));
    }

    #[test]
    fn the_link_keeps_the_other_parameters_encoded_and_replaces_the_cursor() {
        let link = next_link("/v1/campaigns/x/armies", "player=al+ice&after=Old&limit=2", "after", "Sai Rei");
        assert_eq!(link, "</v1/campaigns/x/armies?player=al+ice&limit=2&after=Sai+Rei>; rel=\"next\"");
        let link = next_link("/v1/battles", "", "after", "a&b=c");
        assert_eq!(link, "</v1/battles?after=a%26b%3Dc>; rel=\"next\"");
    }
}
