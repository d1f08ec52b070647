//! Each turn's movement update, as data and as the text a Movement Judge would post on the forum
//! (seed 003 §3.1).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::coalition::{
    campaign::{event::ArmyLosses, CampaignEvent, Delivery},
    days::DaysEvent,
    map::Square,
    movement::{Attack, EngagedSide, LongMove, MoveOutcome, MoveReport},
    orders::{format_order, IgnoredOrder, TransferLine},
};

/// A turn's movement update (seed 003 §3.1).
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct TurnReport {
    /// The turn.
    pub turn: u32,
    /// Last turn's battles applied.
    pub battle_results: Vec<BattleResultLine>,
    /// Losers moved off their battle square.
    pub bumps: Vec<BumpLine>,
    /// Armies killed.
    pub killed: Vec<String>,
    /// Every army's move, with reason and rule.
    pub moves: Vec<MoveReport>,
    /// Orders that did not count.
    pub ignored: Vec<IgnoredOrder>,
    /// Long moves under way.
    pub long_moves: Vec<LongMove>,
    /// Day counts, healing, sieges, destroyed sites, victory.
    pub days: Vec<DaysEvent>,
    /// Troops sent, received, killed on their way, and transfers that did nothing (seed 003 §3.2.4).
    #[serde(default)]
    pub transfers: Vec<TransferReport>,
    /// Battles announced.
    pub battles: Vec<BattleLine>,
    /// Captures, conversions, liberations, wars, raiders, reprimands and the weather, in words
    /// (seed 003 §4.5, §5.4.1, ch. 6, §4.1.2.5).
    #[serde(default)]
    pub notes: Vec<String>,
}

/// What became of a transfer in a turn (seed 003 §2.3.3, §3.2.4).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
#[serde(tag = "outcome", rename_all = "snake_case")]
pub enum TransferOutcome {
    /// The sender lost the troops; `delivery` says when the receiver gets them.
    Sent {
        /// When they arrive.
        delivery: Delivery,
    },
    /// The receiver got the troops.
    Received {
        /// The battle they waited for, if any.
        battle: Option<String>,
    },
    /// The transfer did nothing.
    Failed {
        /// The stable code.
        code: String,
    },
    /// The troops were killed on their way.
    Killed {
        /// The battle that decided it.
        battle: Option<String>,
    },
}

/// A transfer's line in the turn report.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct TransferReport {
    /// The sending army.
    pub from: String,
    /// The receiving army.
    pub to: String,
    /// The troops, by creature.
    pub troops: Vec<TransferLine>,
    /// What happened.
    pub outcome: TransferOutcome,
    /// Why, when it did nothing or the troops were killed.
    pub reason: String,
    /// The rule.
    pub rule: String,
}

/// A battle result applied in a turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct BattleResultLine {
    /// The battle stream.
    pub battle: String,
    /// The winning armies.
    pub winners: Vec<String>,
    /// Troops lost per army, per troop line.
    pub losses: Vec<ArmyLosses>,
}

/// A loser moved off its battle square (seed 003 §4.2.5).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct BumpLine {
    /// The army.
    pub army: String,
    /// The battle square.
    pub from: Square,
    /// Where it went.
    pub to: Square,
    /// Pushed into an occupied square, to fight again next turn.
    pub pushed: bool,
}

/// A battle announced in a turn.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, ToSchema)]
pub struct BattleLine {
    /// The battle stream.
    pub battle: String,
    /// The square.
    pub square: Square,
    /// The armies per team.
    pub sides: Vec<EngagedSide>,
    /// Who attacks whom.
    pub attack: Attack,
}

/// The report of `turn`, from the campaign's events (in order).
pub fn turn_report<'a>(turn: u32, events: impl IntoIterator<Item = &'a CampaignEvent>) -> Option<TurnReport> {
    let mut report = TurnReport { turn, ..TurnReport::default() };
    let mut inside = false;
    let mut found = false;
    for event in events {
        match event {
            CampaignEvent::TurnLocked { turn: locked } => inside = *locked == turn,
            CampaignEvent::TurnAdjudicated { turn: done, .. } if *done == turn => {
                found = true;
                inside = false;
            }
            _ if !inside => {}
            CampaignEvent::BattleResultApplied { battle, winners, losses } => report
                .battle_results
                .push(BattleResultLine { battle: battle.clone(), winners: winners.clone(), losses: losses.clone() }),
            CampaignEvent::ArmyBumped { army, from, to, pushed, .. } => {
                report.bumps.push(BumpLine { army: army.clone(), from: *from, to: *to, pushed: *pushed })
            }
            CampaignEvent::ArmyKilled { army, .. } => report.killed.push(army.clone()),
            CampaignEvent::MovementAdjudicated { moves, ignored, long_moves, .. } => {
                report.moves = moves.clone();
                report.ignored = ignored.clone();
                report.long_moves = long_moves.clone();
            }
            CampaignEvent::Days(event) => report.days.push(event.clone()),
            CampaignEvent::TroopsSent { from, to, lines, delivery, rule, .. } => {
                report.transfers.push(TransferReport {
                    from: from.clone(),
                    to: to.clone(),
                    troops: lines.clone(),
                    outcome: TransferOutcome::Sent { delivery: delivery.clone() },
                    reason: String::new(),
                    rule: rule.clone(),
                })
            }
            CampaignEvent::TroopsReceived { army, from, lines, battle, rule, .. } => {
                report.transfers.push(TransferReport {
                    from: from.clone(),
                    to: army.clone(),
                    troops: lines.clone(),
                    outcome: TransferOutcome::Received { battle: battle.clone() },
                    reason: String::new(),
                    rule: rule.clone(),
                })
            }
            CampaignEvent::TransferFailed { from, to, lines, code, reason, rule, .. } => {
                report.transfers.push(TransferReport {
                    from: from.clone(),
                    to: to.clone(),
                    troops: lines.clone(),
                    outcome: TransferOutcome::Failed { code: code.clone() },
                    reason: reason.clone(),
                    rule: rule.clone(),
                })
            }
            CampaignEvent::TransferredTroopsKilled { from, to, lines, battle, reason, rule } => {
                report.transfers.push(TransferReport {
                    from: from.clone(),
                    to: to.clone(),
                    troops: lines.clone(),
                    outcome: TransferOutcome::Killed { battle: battle.clone() },
                    reason: reason.clone(),
                    rule: rule.clone(),
                })
            }
            event if note(event).is_some() => report.notes.extend(note(event)),
            CampaignEvent::BattleAnnounced { battle, square, sides, attack, .. } => report.battles.push(BattleLine {
                battle: battle.clone(),
                square: *square,
                sides: sides.clone(),
                attack: attack.clone(),
            }),
            _ => {}
        }
    }
    found.then_some(report)
}

/// The movement update as a Movement Judge would post it (seed 003 §3.1).
pub fn turn_report_text(report: &TurnReport) -> String {
    let mut text = format!("Movement update, turn {}\n", report.turn);
    if !report.battle_results.is_empty() || !report.bumps.is_empty() || !report.killed.is_empty() {
        text.push_str("\nBattle results\n");
        for line in &report.battle_results {
            let lost: Vec<String> =
                line.losses.iter().map(|l| format!("{} lost {}", l.army, l.losses.iter().sum::<u32>())).collect();
            let winners = if line.winners.is_empty() { "nobody".to_string() } else { line.winners.join(" and ") };
            text.push_str(&format!("  {}: won by {winners}; {}\n", line.battle, lost.join(", ")));
        }
        for bump in &report.bumps {
            let how = if bump.pushed { "pushed into" } else { "moved to" };
            text.push_str(&format!(
                "  {} retreats from {}, {how} {} (seed 003 §4.2.5)\n",
                bump.army, bump.from, bump.to
            ));
        }
        for army in &report.killed {
            text.push_str(&format!("  {army} is killed and removed from the map (seed 003 §4.3)\n"));
        }
    }
    text.push_str("\nMoves\n");
    for line in &report.moves {
        text.push_str(&format!("  {}\n", move_line(line)));
    }
    if !report.ignored.is_empty() {
        text.push_str("\nOrders not carried out\n");
        for ignored in &report.ignored {
            text.push_str(&format!("  {} — {} ({})\n", format_order(&ignored.order), ignored.message, ignored.rule));
        }
    }
    if !report.transfers.is_empty() {
        text.push_str("\nTransfers\n");
        for transfer in &report.transfers {
            text.push_str(&format!("  {}\n", transfer_line(transfer)));
        }
    }
    let days: Vec<String> = report.days.iter().filter_map(day_line).collect();
    if !days.is_empty() {
        text.push_str("\nDay counts\n");
        for line in days {
            text.push_str(&format!("  {line}\n"));
        }
    }
    if !report.notes.is_empty() {
        text.push_str("\nAlso\n");
        for line in &report.notes {
            text.push_str(&format!("  {line}\n"));
        }
    }
    text.push_str("\nBattles\n");
    if report.battles.is_empty() {
        text.push_str("  none\n");
    }
    for BattleLine { battle, square, sides, attack } in &report.battles {
        let line = match attack {
            Attack::Attacks { attackers, defenders } => {
                format!("{} attacks {} at {square}", attackers.join(" and "), defenders.join(" and "))
            }
            Attack::NoAttacker => {
                let names: Vec<String> = sides.iter().map(|s| s.armies.join(" and ")).collect();
                format!("{} at {square} (no-attacker battle)", names.join(" vs "))
            }
        };
        text.push_str(&format!("  {line} [{battle}]\n"));
    }
    text
}

/// A sentence for the report's notes.
fn note(event: &CampaignEvent) -> Option<String> {
    Some(match event {
        CampaignEvent::ArmyCaptured(c) => {
            format!("{} is captured by {} and taken to {} (seed 003 §4.5)", c.army, c.captor, c.to)
        }
        CampaignEvent::ConversionDayCounted(d) => format!("{}: conversion day {} at {}", d.army, d.days, d.square),
        CampaignEvent::ArmyFullyConverted(c) => format!("{} is fully converted (seed 003 §4.5)", c.army),
        CampaignEvent::ArmyLiberated(l) => format!("{} is liberated and returns to its owners (seed 003 §4.5)", l.army),
        CampaignEvent::ThemeArmyWentToWar(w) => {
            format!(
                "{} goes At War with {:?} after {} was killed (seed 003 §6.2.2)",
                w.army, w.against, w.town_defender
            )
        }
        CampaignEvent::TownDefenderHealed(h) => format!("{} heals at home (seed 003 §6.1.2)", h.army),
        CampaignEvent::RaiderSpawnRolled(r) => match &r.spawned {
            Some(raider) => format!("a raider spawns: {} at {} (seed 003 §6.3.2)", raider.army.name, raider.square),
            None => return None,
        },
        CampaignEvent::RaiderDisbanded(d) => format!("{} disbands (seed 003 §6.3.2)", d.army),
        CampaignEvent::PlayerReprimanded(r) => format!("{} is reprimanded: {} ({})", r.player, r.reason, r.rule),
        CampaignEvent::WeatherRolled(w) => format!("weather at {}: {}", w.square, w.weather),
        CampaignEvent::NewArmyOwed(o) => format!("a new army is owed to {} ({})", o.player, o.rule),
        CampaignEvent::IllegalControlEnded(e) => {
            format!("{}'s illegal controllers are removed (seed 003 §5.2.2.2)", e.army)
        }
        _ => return None,
    })
}

fn move_line(line: &MoveReport) -> String {
    let what = match &line.outcome {
        MoveOutcome::Moved => format!("{} > {}", line.from, line.to),
        MoveOutcome::Partial => format!(
            "{} > {} (partial move, wanted {})",
            line.from,
            line.to,
            line.intended.map_or_else(|| "?".to_string(), |s| s.to_string())
        ),
        MoveOutcome::Stayed => format!("stays at {}", line.from),
        MoveOutcome::InBattle => format!("in battle at {}", line.from),
        MoveOutcome::Rejected => format!("stays at {} (order rejected)", line.from),
        MoveOutcome::JointEngageIgnored => format!("stays at {} (Joint Engage ignored)", line.from),
        MoveOutcome::Intercepted { by } => format!("{} > {} (intercepted by {by})", line.from, line.to),
        MoveOutcome::Intercepts { target } => format!("intercepts {target} at {}", line.to),
        MoveOutcome::JointEngagement => format!("{} > {} (Joint Engage)", line.from, line.to),
    };
    let why = if line.reason.is_empty() { String::new() } else { format!(" — {} ({})", line.reason, line.rule) };
    format!("{}: {what}{why}", line.army)
}

fn transfer_line(transfer: &TransferReport) -> String {
    let TransferReport { from, to, troops, outcome, reason, rule } = transfer;
    let troops = if troops.is_empty() {
        "no troops".to_string()
    } else {
        troops.iter().map(|line| format!("{} {}", line.troops, line.creature)).collect::<Vec<_>>().join(", ")
    };
    match outcome {
        TransferOutcome::Sent { delivery: Delivery::ThisUpdate } => format!("{from} sends {troops} to {to} ({rule})"),
        TransferOutcome::Sent { delivery: Delivery::AfterBattle { battle } } => {
            format!("{from} sends {troops} to {to}, who receives them at the end of its battle [{battle}] ({rule})")
        }
        TransferOutcome::Received { .. } => format!("{to} receives {troops} from {from} ({rule})"),
        TransferOutcome::Failed { .. } => {
            format!("{from}: transfer of {troops} to {to} does nothing — {reason} ({rule})")
        }
        TransferOutcome::Killed { .. } => {
            format!("{troops} sent by {from} to {to} are killed — {reason} ({rule})")
        }
    }
}

fn day_line(event: &DaysEvent) -> Option<String> {
    Some(match event {
        DaysEvent::DayCounted { army, square, days, .. } => format!("{army}: day {days} at {square}"),
        DaysEvent::DayCountReset { army, square, .. } => format!("{army}: day count at {square} ends"),
        DaysEvent::ArmyHealed { army, lines, .. } => {
            let healed: Vec<String> = lines.iter().map(|l| format!("{} {} → {}", l.creature, l.from, l.to)).collect();
            format!("{army} heals: {}", healed.join(", "))
        }
        DaysEvent::SiegeDayCounted { army, square, days, .. } => format!("{army}: siege day {days} at {square}"),
        DaysEvent::SiteDestroyed { site, by, .. } => format!("{site} is destroyed by {by} (seed 003 §1.7.1)"),
        DaysEvent::EndGameBegan { team } => {
            format!("{team:?} must now hold a win condition for 4 days (seed 003 §1.7.2)")
        }
        DaysEvent::WinConditionDayCounted { army, square, days } => {
            format!("{army}: win-condition day {days} at {square}")
        }
        DaysEvent::RoundWon { victory } => format!("{:?} wins the round ({})", victory.team, victory.rule),
        DaysEvent::LossesRecorded { .. } | DaysEvent::SiegeLifted { .. } => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_movement_update_lists_transfers_with_their_outcome_and_rule_seed_003_3_2_4() {
        let troops = vec![TransferLine { creature: "Kris Mage".into(), troops: 1000 }];
        let transfer = |outcome, reason: &str, rule: &str| TransferReport {
            from: "Sai Rei".into(),
            to: "Barrin".into(),
            troops: troops.clone(),
            outcome,
            reason: reason.into(),
            rule: rule.into(),
        };
        let report = TurnReport {
            turn: 3,
            transfers: vec![
                transfer(TransferOutcome::Sent { delivery: Delivery::ThisUpdate }, "", "seed 003 §3.2.4.3.1"),
                transfer(TransferOutcome::Received { battle: None }, "", "seed 003 §3.2.4.3.1"),
                transfer(
                    TransferOutcome::Failed { code: "coalition.campaign.transfer_receiver_moved".into() },
                    "Barrin moved away",
                    "seed 003 §3.2.4.1",
                ),
            ],
            ..TurnReport::default()
        };
        let text = turn_report_text(&report);
        assert!(text.contains("\nTransfers\n"), "{text}");
        assert!(text.contains("Sai Rei sends 1000 Kris Mage to Barrin (seed 003 §3.2.4.3.1)"), "{text}");
        assert!(text.contains("Barrin receives 1000 Kris Mage from Sai Rei"), "{text}");
        assert!(text.contains("does nothing — Barrin moved away (seed 003 §3.2.4.1)"), "{text}");
    }
}
