//! Movement adjudication, rule by rule (seed 003 ch. 3). A table of cases in the manner of the
//! DATC: armies before, orders, then where armies end, what the report says and who fights.
//! Army specs are `C Name @3D` (C = Coalition, P = Phyrexia, M = Mercenary, `!` = in battle last
//! turn); orders are `post minute text` in the seed's own format (§3.2.2.5).
#![allow(clippy::unwrap_used)]

#[path = "coalition_movement_support.rs"]
mod support;

use support::*;

struct Case {
    name: &'static str,
    armies: &'static [&'static str],
    orders: &'static [&'static str],
    /// `Army square` for each army checked.
    ends: &'static [&'static str],
    /// `Army outcome-kind` for each army checked.
    outcomes: &'static [&'static str],
    /// Every engagement, as `support::describe` writes it.
    battles: &'static [&'static str],
}

const CASES: &[Case] = &[
    Case {
        name: "seed 003 §3.2.2.1: an army at 3D can move to 6D",
        armies: &["C A @3D"],
        orders: &["p 0 A: 3D > 6D"],
        ends: &["A 6D"],
        outcomes: &["A moved"],
        battles: &[],
    },
    Case {
        name: "seed 003 §3.2.2.1: an army at 3D can move to 5E",
        armies: &["C A @3D"],
        orders: &["p 0 A: 3D > 5E"],
        ends: &["A 5E"],
        outcomes: &["A moved"],
        battles: &[],
    },
    Case {
        name: "seed 003 §3.2.2.1: an army at 3D can move to 4F",
        armies: &["C A @3D"],
        orders: &["p 0 A: 3D > 4F"],
        ends: &["A 4F"],
        outcomes: &["A moved"],
        battles: &[],
    },
    Case {
        name: "seed 003 §3.2.2.1: an army at 3D cannot move to 5F, which is 4 steps away",
        armies: &["C A @3D"],
        orders: &["p 0 A: 3D > 5F"],
        ends: &["A 3D"],
        outcomes: &["A rejected"],
        battles: &[],
    },
    Case {
        name: "seed 003 §3.2.2.1: armies move over top of friendly and enemy armies",
        armies: &["C A @3D", "P B @4D", "C F @5D"],
        orders: &["p 0 A: 3D > 6D"],
        ends: &["A 6D", "B 4D", "F 5D"],
        outcomes: &["A moved", "B stayed", "F stayed"],
        battles: &[],
    },
    Case {
        name: "seed 003 §3.2.2.5: Sai Rei replaces Darkhand5, which leaves 5E",
        armies: &["C Sai Rei @3D", "C Darkhand5 @5E"],
        orders: &["p 0 Sai Rei: 3D > 5E; replace Darkhand5", "q 1 Darkhand5: 5E > 8E"],
        ends: &["Sai Rei 5E", "Darkhand5 8E"],
        outcomes: &["Sai Rei moved", "Darkhand5 moved"],
        battles: &[],
    },
    Case {
        name: "seed 003 §3.3.1, §3.3.2: when Darkhand5 stays, Sai Rei gets as close to 5E as it can",
        armies: &["C Sai Rei @3D", "C Darkhand5 @5E"],
        orders: &["p 0 Sai Rei: 3D > 5E; replace Darkhand5", "q 1 Darkhand5: hold"],
        ends: &["Sai Rei 4E", "Darkhand5 5E"],
        outcomes: &["Sai Rei partial", "Darkhand5 stayed"],
        battles: &[],
    },
    Case {
        name: "seed 003 §3.3.4: armies that swap squares arrive without fighting",
        armies: &["C A @3F", "P B @4F"],
        orders: &["p 0 A: 3F > 4F; engage B", "q 0 B: 4F > 3F; engage A"],
        ends: &["A 4F", "B 3F"],
        outcomes: &["A moved", "B moved"],
        battles: &[],
    },
    Case {
        name: "seed 003 §3.3.1: of two friends moving to one square the closer arrives",
        armies: &["C A @5E", "C B @8E"],
        orders: &["p 5 B: 8E > 6E", "q 9 A: 5E > 6E"],
        ends: &["A 6E", "B 7E"],
        outcomes: &["A moved", "B partial"],
        battles: &[],
    },
    Case {
        name: "seed 003 §3.3.1: at the same distance the earlier post arrives",
        armies: &["C A @4E", "C B @8E"],
        orders: &["p 10 A: 4E > 6E", "q 5 B: 8E > 6E"],
        ends: &["B 6E", "A 5E"],
        outcomes: &["B moved", "A partial"],
        battles: &[],
    },
    Case {
        name: "seed 003 §3.3.1: in one post the move written first arrives",
        armies: &["C A @4E", "C B @8E"],
        orders: &["p 5 B: 8E > 6E", "p 5 A: 4E > 6E"],
        ends: &["B 6E", "A 5E"],
        outcomes: &["B moved", "A partial"],
        battles: &[],
    },
    Case {
        name: "seed 003 §3.3.2: an intended entry has priority over a partial move",
        armies: &["C A @5E", "C B @8E", "C C @9E"],
        orders: &["p 0 A: 5E > 6E", "p 0 B: 8E > 6E", "p 0 C: 9E > 7E"],
        ends: &["A 6E", "C 7E", "B 5E"],
        outcomes: &["A moved", "C moved", "B partial"],
        battles: &[],
    },
    Case {
        name: "seed 003 §3.2.2.1, §3.2.2.4: a route of more than 3 steps is rejected",
        armies: &["C A @5E", "C B @5H"],
        orders: &["p 0 A: 5E > 5G (5E - 4E - 4F - 4G - 5G)", "p 0 B: 5H > 5G (5H - 5G)"],
        ends: &["A 5E", "B 5G"],
        outcomes: &["A rejected", "B moved"],
        battles: &[],
    },
    Case {
        name: "seed 003 §3.3.2, §3.2.2.4: a routed move that loses its square stops on its route",
        armies: &["C A @5E", "C B @5H"],
        orders: &["p 0 A: 5E > 4G (5E - 5F - 5G - 4G)", "p 0 B: 5H > 4G (5H - 4H - 4G)"],
        ends: &["B 4G", "A 5G"],
        outcomes: &["B moved", "A partial"],
        battles: &[],
    },
    Case {
        name: "seed 003 §3.2.1: an army in battle last turn does not move",
        armies: &["C! A @5E", "P! B @5E"],
        orders: &["p 0 A: 5E > 6E"],
        ends: &["A 5E", "B 5E"],
        outcomes: &["A in_battle", "B in_battle"],
        battles: &[],
    },
    Case {
        name: "seed 003 §4.1.2.3: an army moving onto a waiting enemy attacks it",
        armies: &["C A @3E", "P B @5E"],
        orders: &["p 0 A: 3E > 5E; engage B", "q 0 B: hold"],
        ends: &["A 5E", "B 5E"],
        outcomes: &["A moved", "B stayed"],
        battles: &["5E: A attacks B"],
    },
    Case {
        name: "seed 003 §4.1.2.3: enemies moving into one square together fight with no attacker",
        armies: &["C A @3E", "P B @7E"],
        orders: &["p 0 A: 3E > 5E", "q 0 B: 7E > 5E"],
        ends: &["A 5E", "B 5E"],
        outcomes: &["A moved", "B moved"],
        battles: &["5E: no attacker B v A"],
    },
    Case {
        name: "seed 003 §3.2.3.1: an interceptor stops an enemy whose route crosses it",
        armies: &["C I @5E", "P X @3E"],
        orders: &["p 0 I: intercept X", "q 0 X: 3E > 6E"],
        ends: &["I 5E", "X 5E"],
        outcomes: &["I intercepts", "X intercepted"],
        battles: &["5E: X attacks I"],
    },
    Case {
        name: "seed 003 §3.2.3.1: an interceptor the route does not cross catches nothing",
        armies: &["C I @4E", "P X @3E"],
        orders: &["p 0 I: intercept X", "q 0 X: 3E > 5F (3E - 3F - 4F - 5F)"],
        ends: &["I 4E", "X 5F"],
        outcomes: &["I stayed", "X moved"],
        battles: &[],
    },
    Case {
        name: "seed 003 §3.2.3.1: an intercept of an army that ends on the interceptor is a plain engagement",
        armies: &["C I @5E", "P X @3E"],
        orders: &["p 0 I: intercept X", "q 0 X: 3E > 5E; engage I"],
        ends: &["I 5E", "X 5E"],
        outcomes: &["I stayed", "X moved"],
        battles: &["5E: X attacks I"],
    },
    Case {
        name: "seed 003 §3.2.3.2: an engaging army closer than the intercepted one fights, and the other moves on",
        armies: &["C I @5E", "P X @3E", "P B @5F"],
        orders: &["p 0 I: intercept X", "q 0 X: 3E > 6E", "q 0 B: 5F > 5E; engage I"],
        ends: &["I 5E", "X 6E", "B 5E"],
        outcomes: &["I stayed", "X moved", "B moved"],
        battles: &["5E: B attacks I"],
    },
    Case {
        name:
            "seed 003 §3.2.3.2: an intercepted army closer than the engaging one fights, and the other moves partially",
        armies: &["C I @5E", "P X @4E", "P B @5H"],
        orders: &["p 0 I: intercept X", "q 0 X: 4E > 7E", "q 0 B: 5H > 5E; engage I"],
        ends: &["I 5E", "X 5E", "B 5F"],
        outcomes: &["I intercepts", "X intercepted", "B partial"],
        battles: &["5E: X attacks I"],
    },
    Case {
        name: "seed 003 §3.3.5: Coalition and Phyrexia enter and fight; the mercenary moves partially",
        armies: &["C A @5C", "P B @5G", "M R @3E"],
        orders: &["p 0 A: 5C > 5E", "q 0 B: 5G > 5E", "m 0 R: 3E > 5E"],
        ends: &["A 5E", "B 5E", "R 4E"],
        outcomes: &["A moved", "B moved", "R partial"],
        battles: &["5E: no attacker B v A"],
    },
    Case {
        name: "seed 003 §3.2.5.2: two armies Joint Engage an enemy in a 2 v 1 battle",
        armies: &["C A @5C", "C B @5G", "P E @5E"],
        orders: &["p 0 A: 5C > 5E; Joint Engage", "p 1 B: 5G > 5E; Joint Engage", "q 0 E: hold"],
        ends: &["A 5E", "B 5E", "E 5E"],
        outcomes: &["A joint_engagement", "B joint_engagement", "E stayed"],
        battles: &["5E: A+B attack E"],
    },
    Case {
        name: "seed 003 §3.2.5.1: a Joint Engage may stay on its own square",
        armies: &["C A @5E", "C B @5G", "P E @3E"],
        orders: &["p 0 A: 5E > 5E; Joint Engage", "p 1 B: 5G > 5E; Joint Engage", "q 0 E: 3E > 5E"],
        ends: &["A 5E", "B 5E", "E 5E"],
        outcomes: &["A joint_engagement", "B joint_engagement", "E moved"],
        battles: &["5E: E attacks A+B"],
    },
    Case {
        name: "seed 003 §3.2.5.3: a lone Joint Engage is ignored and the army does not move",
        armies: &["C A @5C", "P E @5E"],
        orders: &["p 0 A: 5C > 5E; Joint Engage"],
        ends: &["A 5C", "E 5E"],
        outcomes: &["A joint_engage_ignored"],
        battles: &[],
    },
    Case {
        name: "seed 003 §3.2.5.3: three Joint Engages on one square are all ignored",
        armies: &["C A @5C", "C B @5G", "C D @3E", "P E @5E"],
        orders: &["p 0 A: 5C > 5E; Joint Engage", "p 0 B: 5G > 5E; Joint Engage", "p 0 D: 3E > 5E; Joint Engage"],
        ends: &["A 5C", "B 5G", "D 3E", "E 5E"],
        outcomes: &["A joint_engage_ignored", "B joint_engage_ignored", "D joint_engage_ignored"],
        battles: &[],
    },
    Case {
        name: "seed 003 §3.2.5.3: a Joint Engage with a third friend moving in is ignored",
        armies: &["C A @5C", "C B @5G", "C D @3E", "P E @5E"],
        orders: &["p 0 A: 5C > 5E; Joint Engage", "p 0 B: 5G > 5E; Joint Engage", "p 0 D: 3E > 5E; engage E"],
        ends: &["A 5C", "B 5G", "D 5E", "E 5E"],
        outcomes: &["A joint_engage_ignored", "B joint_engage_ignored", "D moved"],
        battles: &["5E: D attacks E"],
    },
    Case {
        name: "seed 003 §3.2.5.3: a Joint Engage that no enemy enters is a normal move under §3.3.1",
        armies: &["C A @5D", "C B @5G"],
        orders: &["p 0 A: 5D > 5E; Joint Engage", "p 1 B: 5G > 5E; Joint Engage"],
        ends: &["A 5E", "B 5F"],
        outcomes: &["A moved", "B partial"],
        battles: &[],
    },
    Case {
        name: "seed 003 §3.2.5.4: only the joint engagement whose second order came first goes through",
        armies: &["C A @5C", "C B @5G", "P E @5E", "C F @15C", "C G @15G", "P H @15E"],
        orders: &[
            "p 0 F: 15C > 15E; Joint Engage",
            "p 1 A: 5C > 5E; Joint Engage",
            "p 2 B: 5G > 5E; Joint Engage",
            "p 3 G: 15G > 15E; Joint Engage",
        ],
        ends: &["A 5E", "B 5E", "F 15D", "G 15F"],
        outcomes: &["A joint_engagement", "B joint_engagement", "F partial", "G partial"],
        battles: &["5E: A+B attack E"],
    },
    Case {
        name: "seed 003 §3.2.5.4: a Captain's army cannot Joint Engage",
        armies: &["C:captain A @5C", "C B @5G", "P E @5E"],
        orders: &["p 0 A: 5C > 5E; Joint Engage", "p 1 B: 5G > 5E; Joint Engage"],
        ends: &["A 5C", "B 5G"],
        outcomes: &["A joint_engage_ignored", "B joint_engage_ignored"],
        battles: &[],
    },
    Case {
        name: "seed 003 §3.2.1: hold, transfer and no order leave an army where it is",
        armies: &["C A @5C", "C B @5D", "C D @9D"],
        orders: &["p 0 A: hold", "p 0 B: transfer to A at 5C"],
        ends: &["A 5C", "B 5D", "D 9D"],
        outcomes: &["A stayed", "B stayed", "D stayed"],
        battles: &[],
    },
];

#[test]
fn every_case_of_the_movement_table_holds() {
    let mut failures = Vec::new();
    for case in CASES {
        let outcome = run(case.armies, case.orders);
        assert_eq!(outcome.positions.len(), case.armies.len(), "{}: an army was lost", case.name);
        for end in case.ends {
            let (army, square) = end.rsplit_once(' ').unwrap();
            let got = position(&outcome, army);
            if got != square {
                failures.push(format!("{}: {army} ended on {got}, expected {square}", case.name));
            }
        }
        for expected in case.outcomes {
            let (army, expected_kind) = expected.rsplit_once(' ').unwrap();
            let got = kind(&outcome, army);
            if got != expected_kind {
                failures.push(format!("{}: {army} was {got}, expected {expected_kind}", case.name));
            }
        }
        let got = battles(&outcome);
        if got != case.battles {
            failures.push(format!("{}: battles {got:?}, expected {:?}", case.name, case.battles));
        }
    }
    assert!(failures.is_empty(), "{} failing:\n{}", failures.len(), failures.join("\n"));
}
