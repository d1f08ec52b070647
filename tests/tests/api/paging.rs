//! Paging every list the same way (docs/API.md "Paging"): `limit`, the `after` cursor, a
//! `Link: <…>; rel="next"` header until the last page, filters kept across pages, and problems
//! naming the parameter that does not fit.

use herald_tests::{spawn_app, Reply, TestApp};
use serde_json::{json, Value};

use crate::campaign;
use crate::support::*;

/// The target of a `Link: <…>; rel="next"` header, if there is one.
fn next_link(reply: &Reply) -> Option<String> {
    let link = reply.header("link")?;
    assert!(link.ends_with("; rel=\"next\""), "{link}");
    let start = link.find('<')? + 1;
    let end = link.find('>')?;
    Some(link[start..end].to_string())
}

/// Follow `Link` headers from `path`: every item of every page, and how many pages there were.
async fn walk(app: &TestApp, path: &str) -> (Vec<Value>, usize) {
    let mut items = Vec::new();
    let mut pages = 0;
    let mut next = Some(path.to_string());
    while let Some(path) = next {
        let page = app.request("GET", &path, None, None).await;
        assert_eq!(page.status, 200, "GET {path}: {:#}", page.body);
        pages += 1;
        assert!(pages <= 20, "paging ends");
        let body = page.body.as_array().expect("a list is a JSON array");
        items.extend(body.iter().cloned());
        next = next_link(&page);
        assert!(next.is_none() || !body.is_empty(), "no empty page before the last: GET {path}");
    }
    (items, pages)
}

fn field(items: &[Value], name: &str) -> Vec<String> {
    items.iter().map(|item| item[name].as_str().expect("a string").to_string()).collect()
}

/// A 400 whose detail names `parameter`.
fn assert_names(reply: &Reply, parameter: &str) {
    assert_problem(reply, 400, "malformed_request");
    let detail = reply.body["detail"].as_str().unwrap_or_default();
    assert!(detail.contains(parameter), "{detail:?} should name {parameter:?}");
}

#[tokio::test]
async fn battles_page_in_the_order_they_were_opened_and_filter_by_ruleset_status_and_participant() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let mut opened = Vec::new();
    for (index, ruleset) in ["coalition", "warmachine", "coalition", "warmachine", "coalition"].into_iter().enumerate()
    {
        let battle = match ruleset {
            "warmachine" => {
                // The second warmachine battle's blue player is carol's, not bob's.
                let mut body = crate::warmachine::battle();
                if index == 3 {
                    body["players"][1]["controller"] = json!("carol");
                }
                create(&app, &cast.judge, body).await
            }
            _ => create_sample(&app, &cast).await,
        };
        opened.push((battle, ruleset));
    }
    let ids: Vec<String> = opened.iter().map(|(battle, _)| battle.id.clone()).collect();

    // Without `limit`: every battle, one page, no Link (as before paging).
    let all = app.request("GET", "/v1/battles", None, None).await;
    assert_eq!(all.status, 200, "{:#}", all.body);
    assert_eq!(field(all.body.as_array().expect("an array"), "id"), ids);
    assert_eq!(next_link(&all), None);

    // Two at a time: three pages, every battle once, in order.
    let (walked, pages) = walk(&app, "/v1/battles?limit=2").await;
    assert_eq!((field(&walked, "id"), pages), (ids.clone(), 3));
    let first = app.request("GET", "/v1/battles?limit=2", None, None).await;
    let link = next_link(&first).expect("a next page");
    assert_eq!(link, format!("/v1/battles?limit=2&after={}", ids[1]));
    let last = app.request("GET", &format!("/v1/battles?limit=2&after={}", ids[3]), None, None).await;
    assert_eq!((field(last.body.as_array().expect("an array"), "id"), next_link(&last)), (vec![ids[4].clone()], None));
    let exact = app.request("GET", &format!("/v1/battles?limit=3&after={}", ids[1]), None, None).await;
    assert_eq!(next_link(&exact), None, "no Link when the page ends the list");

    // By ruleset, one at a time: the filter is kept in the Link.
    let (warmachine, pages) = walk(&app, "/v1/battles?ruleset=warmachine&limit=1").await;
    assert_eq!((field(&warmachine, "id"), pages), (vec![ids[1].clone(), ids[3].clone()], 2));
    let page = app.request("GET", "/v1/battles?ruleset=warmachine&limit=1", None, None).await;
    assert!(next_link(&page).is_some_and(|link| link.contains("ruleset=warmachine")), "{:?}", page.header("link"));
    let (coalition, _) = walk(&app, "/v1/battles?ruleset=coalition&limit=2").await;
    assert_eq!(field(&coalition, "id"), [ids[0].clone(), ids[2].clone(), ids[4].clone()]);

    // By status and by whether it has ended: resolve the second coalition battle.
    prepare(&app, &cast, &opened[2].0).await;
    resolve(&app, &cast, &opened[2].0).await;
    let (ended, _) = walk(&app, "/v1/battles?ended=true&limit=1").await;
    assert_eq!(field(&ended, "id"), [ids[2].clone()]);
    let status = ended[0]["status"].as_str().expect("a status").to_string();
    let (same, _) = walk(&app, &format!("/v1/battles?status={status}")).await;
    assert_eq!(field(&same, "id"), [ids[2].clone()]);
    let (running, _) = walk(&app, "/v1/battles?ended=false&ruleset=coalition&limit=1").await;
    assert_eq!(field(&running, "id"), [ids[0].clone(), ids[4].clone()]);
    // A cursor that no longer matches the filter still pages on.
    let (after_ended, _) = walk(&app, &format!("/v1/battles?ended=false&after={}", ids[2])).await;
    assert_eq!(field(&after_ended, "id"), [ids[3].clone(), ids[4].clone()]);

    // By participant (an army of a coalition battle, a player of warmachine), URL-encoded.
    let (sai_rei, _) = walk(&app, "/v1/battles?participant=Sai%20Rei&limit=2").await;
    assert_eq!(field(&sai_rei, "id"), [ids[0].clone(), ids[2].clone(), ids[4].clone()]);
    let (red, _) = walk(&app, "/v1/battles?participant=red").await;
    assert_eq!(field(&red, "id"), [ids[1].clone(), ids[3].clone()]);
    let (nobody, _) = walk(&app, "/v1/battles?participant=nobody").await;
    assert!(nobody.is_empty());

    // By player: whoever controls an army, a warmachine player, a side (the `players` listed).
    let listed = app.request("GET", "/v1/battles", None, None).await;
    let players: Vec<&Value> = listed.body.as_array().expect("an array").iter().map(|b| &b["players"]).collect();
    let alice_bob = json!(["alice", "bob"]);
    assert_eq!(players, [&alice_bob, &alice_bob, &alice_bob, &json!(["alice", "carol"]), &alice_bob]);
    let (carol, _) = walk(&app, "/v1/battles?player=carol").await;
    assert_eq!(field(&carol, "id"), [ids[3].clone()]);
    let (bob, _) = walk(&app, "/v1/battles?player=bob&limit=3").await;
    assert_eq!(field(&bob, "id"), [ids[0].clone(), ids[1].clone(), ids[2].clone(), ids[4].clone()]);
    let (red_carol, _) = walk(&app, "/v1/battles?player=carol&participant=red").await;
    assert_eq!(field(&red_carol, "id"), [ids[3].clone()]);

    // Bad parameters name themselves; an unknown cursor or campaign is a 404.
    for (query, parameter) in [
        ("limit=0", "limit"),
        ("limit=1001", "limit"),
        ("limit=abc", "limit"),
        ("limit=-1", "limit"),
        ("ended=maybe", "ended"),
        ("campaign=nonsense", "campaign"),
        ("colour=red", "colour"),
    ] {
        assert_names(&app.request("GET", &format!("/v1/battles?{query}"), None, None).await, parameter);
    }
    let unknown = app.request("GET", "/v1/battles?ruleset=chess", None, None).await;
    assert_names(&unknown, "`ruleset`");
    assert_names(&unknown, "chess");
    assert_names(&unknown, "warmachine");
    let max = app.request("GET", "/v1/battles?limit=1000", None, None).await;
    assert_eq!(max.body.as_array().map(Vec::len), Some(5));
    let nowhere = uuid_like(&ids[0]);
    assert_problem(&app.request("GET", &format!("/v1/battles?after={nowhere}"), None, None).await, 404, "not_found");
    assert_problem(&app.request("GET", "/v1/battles?after=not-a-battle", None, None).await, 404, "not_found");
    let no_campaign = app.request("GET", &format!("/v1/battles?campaign={nowhere}"), None, None).await;
    assert_problem(&no_campaign, 404, "not_found");
}

/// A UUID of the same shape as `id` that names nothing: its last digit changed.
fn uuid_like(id: &str) -> String {
    let (head, last) = id.split_at(id.len() - 1);
    format!("{head}{}", if last == "0" { "1" } else { "0" })
}

#[tokio::test]
async fn campaigns_armies_orders_and_a_campaigns_battles_page_and_filter() {
    let app = spawn_app().await;
    let cast = Cast::issue(&app).await;
    let (first, first_stream) = campaign::create(&app, &cast).await;
    let (second, second_stream) = campaign::create(&app, &cast).await;
    let unrelated = create_sample(&app, &cast).await;

    // Rounds, one a page, in the order they were set up; the cursor is the id.
    let (rounds, pages) = walk(&app, "/v1/campaigns?limit=1").await;
    assert_eq!((field(&rounds, "stream"), pages), (vec![first_stream.clone(), second_stream.clone()], 2));
    let page = app.request("GET", "/v1/campaigns?limit=1", None, None).await;
    assert_eq!(next_link(&page), Some(format!("/v1/campaigns?limit=1&after={first}")));
    let by_stream = app.request("GET", &format!("/v1/campaigns?after={first_stream}"), None, None).await;
    assert_eq!(field(by_stream.body.as_array().expect("an array"), "stream"), [second_stream.as_str()]);

    // A turn on the first round announces a battle (seed 003 §3.1): `?campaign=` lists it alone.
    let adjudicated =
        campaign::turn(&app, &cast, &first, &[("alice", "Sai Rei: 5E > 8E"), ("bob", "Plague Host: 9E > 8E")]).await;
    let announced = campaign::events_of(&adjudicated, "coalition.BattleAnnounced");
    let battle = announced[0]["data"]["battle"].as_str().expect("a battle stream").to_string();
    for campaign in [&first, &first_stream] {
        let (battles, _) = walk(&app, &format!("/v1/battles?campaign={campaign}&limit=1")).await;
        assert_eq!(field(&battles, "stream"), [battle.as_str()]);
    }
    let (none, _) = walk(&app, &format!("/v1/battles?campaign={second}")).await;
    assert!(none.is_empty());
    let (both, _) = walk(&app, "/v1/battles?limit=1").await;
    assert_eq!(field(&both, "stream"), [unrelated.stream.clone(), battle.clone()]);

    // Rounds by the phase of their turn: the second opens one.
    let opened = app
        .request(
            "POST",
            &format!("/v1/campaigns/{second}/turns"),
            Some(&cast.judge),
            Some(json!({"deadline": in_a_day()})),
        )
        .await;
    assert_eq!(opened.status, 200, "{:#}", opened.body);
    let (open, _) = walk(&app, "/v1/campaigns?status=open").await;
    assert_eq!(field(&open, "stream"), [second_stream.as_str()]);
    let (closed, _) = walk(&app, "/v1/campaigns?status=closed&ended=false").await;
    assert_eq!(field(&closed, "stream"), [first_stream.as_str()]);
    assert_names(&app.request("GET", "/v1/campaigns?status=finished", None, None).await, "status");
    assert_names(&app.request("GET", "/v1/campaigns?limit=1001", None, None).await, "limit");
    let nowhere = uuid_like(&first);
    assert_problem(&app.request("GET", &format!("/v1/campaigns?after={nowhere}"), None, None).await, 404, "not_found");

    // Armies, one a page, by name; `?at=` and the filters kept in the Link, which encodes names.
    let armies = format!("/v1/campaigns/{second}/armies");
    let (walked, pages) = walk(&app, &format!("{armies}?limit=1")).await;
    assert_eq!((field(&walked, "name"), pages), (vec!["Plague Host".to_string(), "Sai Rei".to_string()], 2));
    let set_up = app.request("GET", &format!("/v1/campaigns/{first}"), None, None).await;
    let at = set_up.body["version"].as_u64().expect("a version");
    let page = app.request("GET", &format!("/v1/campaigns/{first}/armies?at={at}&limit=1"), None, None).await;
    assert_eq!(page.status, 200, "{:#}", page.body);
    let link = format!("/v1/campaigns/{first}/armies?at={at}&limit=1&after=Plague+Host");
    assert_eq!(next_link(&page), Some(link.clone()));
    let (at_then, _) = walk(&app, &format!("/v1/campaigns/{first}/armies?at={at}&limit=1")).await;
    assert_eq!(field(&at_then, "name"), ["Plague Host", "Sai Rei"]);
    let (alices, _) = walk(&app, &format!("{armies}?player=alice")).await;
    assert_eq!(field(&alices, "name"), ["Sai Rei"]);
    let (phyrexia, _) = walk(&app, &format!("{armies}?team=phyrexia&limit=1")).await;
    assert_eq!(field(&phyrexia, "name"), ["Plague Host"]);
    assert_names(&app.request("GET", &format!("{armies}?team=elves"), None, None).await, "team");
    assert_names(&app.request("GET", &format!("{armies}?limit=abc"), None, None).await, "limit");
    assert_names(&app.request("GET", &format!("{armies}?at=0&foo=1"), None, None).await, "foo");
    assert_problem(&app.request("GET", &format!("{armies}?after=Nobody"), None, None).await, 404, "not_found");

    // The open turn's orders, one a page, in posting order.
    for (token, text) in [(&cast.alice, "Sai Rei: 5E > 6E"), (&cast.bob, "Plague Host: 9E > 10E")] {
        let posted = app
            .request("POST", &format!("/v1/campaigns/{second}/orders"), Some(token), Some(json!({"text": text})))
            .await;
        assert_eq!(posted.status, 200, "{:#}", posted.body);
    }
    let (orders, pages) = walk(&app, &format!("/v1/campaigns/{second}/orders?limit=1")).await;
    assert_eq!((field(&orders, "army"), pages), (vec!["Sai Rei".to_string(), "Plague Host".to_string()], 2));
    let votes = app.request("GET", &format!("/v1/campaigns/{second}/votes?limit=5"), None, None).await;
    assert_eq!((votes.status, votes.body.clone(), next_link(&votes)), (200, json!([]), None));
    assert_problem(
        &app.request("GET", &format!("/v1/campaigns/{second}/votes?after=v1"), None, None).await,
        404,
        "not_found",
    );
}
