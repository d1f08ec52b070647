//! Which orders count (seed 003 §3.3.6, §3.1, ch. 5) and who may see them before the lock
//! (§3.1). Each test names the section it checks.

use chrono::{DateTime, Duration, TimeZone, Utc};
use herald_domain::coalition::army::Team;
use herald_domain::coalition::orders::visibility::visible_orders;
use herald_domain::coalition::orders::{
    may_see, select_orders, ControlList, IgnoreReason, Order, PostedOrder, Selection, Viewer,
};

fn deadline() -> DateTime<Utc> {
    Utc.with_ymd_and_hms(2004, 3, 2, 5, 0, 0).single().expect("a time")
}

/// An order for `army` by `by`, `minutes` after (negative: before) the deadline.
fn order(army: &str, by: &str, minutes: i64, post: &str, line: u32, what: Order) -> PostedOrder {
    PostedOrder {
        army: army.into(),
        order: what,
        posted_by: by.into(),
        posted_at: deadline() + Duration::minutes(minutes),
        post: post.into(),
        line,
        private: false,
        uncontrolled: false,
    }
}

fn intercept(target: &str) -> Order {
    Order::Intercept { target: target.into() }
}

fn control(entries: &[(&str, &[&str])]) -> ControlList {
    entries.iter().map(|(army, players)| (army.to_string(), players.iter().map(|p| p.to_string()).collect())).collect()
}

fn reasons(selection: &Selection) -> Vec<(String, IgnoreReason)> {
    selection.ignored.iter().map(|ignored| (ignored.order.post.clone(), ignored.reason)).collect()
}

#[test]
fn only_the_last_order_from_the_one_controller_counts_3_3_6() {
    let orders = vec![
        order("Sai Rei", "Gazetzot", -30, "p2", 0, intercept("Crovax")),
        order("Sai Rei", "Gazetzot", -90, "p1", 0, Order::Hold),
        order("Sai Rei", "Gazetzot", -30, "p2", 1, intercept("Greven")),
    ];
    let selection = select_orders(&orders, &control(&[("Sai Rei", &["Gazetzot"])]), deadline());
    assert_eq!(selection.effective, vec![orders[2].clone()]);
    assert_eq!(
        reasons(&selection),
        vec![("p1".into(), IgnoreReason::Superseded), ("p2".into(), IgnoreReason::Superseded)]
    );
    let ignored = &selection.ignored[1];
    assert_eq!((ignored.code.as_str(), ignored.rule.as_str()), ("coalition.orders.superseded", "seed 003 §3.3.6"));
    assert!(selection.stalled.is_empty());
}

#[test]
fn an_army_ordered_by_two_legal_controllers_ignores_all_its_orders_and_fails_to_move_3_3_6() {
    let orders = vec![
        order("Sai Rei", "Gazetzot", -60, "p1", 0, Order::Hold),
        order("Sai Rei", "Karn", -30, "p2", 0, intercept("Crovax")),
        order("Darkhand5", "Karn", -30, "p2", 1, Order::Hold),
    ];
    let list = control(&[("Sai Rei", &["Gazetzot", "Karn"]), ("Darkhand5", &["Karn"])]);
    let selection = select_orders(&orders, &list, deadline());
    assert_eq!(selection.effective, vec![orders[2].clone()]);
    assert_eq!(
        reasons(&selection),
        vec![("p1".into(), IgnoreReason::SeveralControllers), ("p2".into(), IgnoreReason::SeveralControllers)]
    );
    assert!(selection.ignored[0].message.contains("Gazetzot, Karn"), "{}", selection.ignored[0].message);
    assert_eq!(selection.stalled.iter().collect::<Vec<_>>(), vec!["Sai Rei"]);
}

#[test]
fn a_second_controller_who_posts_nothing_does_not_stop_the_army_3_3_6() {
    let orders = vec![order("Sai Rei", "Gazetzot", -60, "p1", 0, Order::Hold)];
    let selection = select_orders(&orders, &control(&[("Sai Rei", &["Gazetzot", "Karn"])]), deadline());
    assert_eq!(selection.effective, orders);
}

#[test]
fn orders_after_the_deadline_are_ignored_and_the_deadline_itself_is_in_3_1() {
    let orders = vec![
        order("Sai Rei", "Sai Rei", 0, "p1", 0, Order::Hold),
        order("Sai Rei", "Sai Rei", 1, "p2", 0, intercept("Crovax")),
    ];
    let selection = select_orders(&orders, &ControlList::new(), deadline());
    assert_eq!(selection.effective, vec![orders[0].clone()]);
    assert_eq!(reasons(&selection), vec![("p2".into(), IgnoreReason::AfterDeadline)]);
    assert_eq!(selection.ignored[0].rule, "seed 003 §3.1");
}

#[test]
fn a_late_order_from_a_second_controller_does_not_stall_the_army_3_3_6() {
    let orders = vec![
        order("Sai Rei", "Gazetzot", -60, "p1", 0, Order::Hold),
        order("Sai Rei", "Karn", 5, "p2", 0, intercept("Crovax")),
    ];
    let selection = select_orders(&orders, &control(&[("Sai Rei", &["Gazetzot", "Karn"])]), deadline());
    assert_eq!(selection.effective, vec![orders[0].clone()]);
    assert!(selection.stalled.is_empty());
}

#[test]
fn orders_from_players_who_do_not_control_the_army_are_ignored_and_reported_5_4_1() {
    let orders = vec![
        order("Sai Rei", "Gazetzot", -60, "p1", 0, Order::Hold),
        order("Sai Rei", "Volrath", -30, "p2", 0, intercept("Crovax")),
    ];
    let selection = select_orders(&orders, &control(&[("Sai Rei", &["Gazetzot"])]), deadline());
    assert_eq!(selection.effective, vec![orders[0].clone()]);
    let ignored = &selection.ignored[0];
    assert_eq!((ignored.reason, ignored.rule.as_str()), (IgnoreReason::NotController, "seed 003 §5.4.1"));
    assert_eq!(ignored.message, "Volrath does not control Sai Rei");
}

#[test]
fn an_army_not_on_the_control_list_is_controlled_by_its_namesake_5_2_1() {
    let orders = vec![
        order("Gazetzot", "Gazetzot", -60, "p1", 0, Order::Hold),
        order("Sai Rei", "Sai Rei", -60, "p2", 0, Order::Hold),
        order("Sai Rei", "Gazetzot", -30, "p3", 0, Order::Hold),
    ];
    let selection = select_orders(&orders, &control(&[("Sai Rei", &["Gazetzot"])]), deadline());
    assert_eq!(selection.effective, vec![orders[0].clone(), orders[2].clone()]);
    assert_eq!(reasons(&selection), vec![("p2".into(), IgnoreReason::NotController)]);
}

#[test]
fn an_army_listed_with_no_controller_ignores_every_order_5_3_1() {
    let orders = vec![order("Sai Rei", "Sai Rei", -60, "p1", 0, Order::Hold)];
    let selection = select_orders(&orders, &control(&[("Sai Rei", &[])]), deadline());
    assert!(selection.effective.is_empty());
    assert_eq!(reasons(&selection), vec![("p1".into(), IgnoreReason::NotController)]);
}

#[test]
fn effective_orders_come_out_in_posting_order_for_tie_breaks_3_3_1() {
    let orders = vec![
        order("B", "B", -10, "p2", 0, Order::Hold),
        order("C", "C", -20, "p1", 1, Order::Hold),
        order("A", "A", -20, "p1", 2, Order::Hold),
    ];
    let selection = select_orders(&orders, &ControlList::new(), deadline());
    let armies: Vec<&str> = selection.effective.iter().map(|order| order.army.as_str()).collect();
    assert_eq!(armies, vec!["C", "A", "B"]);
}

#[test]
fn private_orders_are_hidden_from_the_other_team_until_the_lock_3_1() {
    let mut private = order("Sai Rei", "Gazetzot", -60, "pm1", 0, Order::Hold);
    private.private = true;
    let public = order("Crovax", "Crovax", -60, "p1", 0, Order::Hold);
    let coalition = Some(Team::Coalition);
    assert!(!may_see(Viewer::Team(Team::Phyrexia), &private, coalition, false));
    assert!(may_see(Viewer::Team(Team::Coalition), &private, coalition, false));
    assert!(may_see(Viewer::Judge, &private, coalition, false));
    assert!(may_see(Viewer::Team(Team::Phyrexia), &private, coalition, true));
    assert!(
        !may_see(Viewer::Team(Team::Coalition), &private, None, false),
        "an unknown army's private order stays hidden"
    );
    assert!(may_see(Viewer::Team(Team::Coalition), &public, Some(Team::Phyrexia), false));
    let orders = vec![private, public];
    let team_of = |army: &str| Some(if army == "Crovax" { Team::Phyrexia } else { Team::Coalition });
    let seen: Vec<&str> =
        visible_orders(Viewer::Team(Team::Phyrexia), &orders, team_of, false).iter().map(|o| o.army.as_str()).collect();
    assert_eq!(seen, vec!["Crovax"]);
}
