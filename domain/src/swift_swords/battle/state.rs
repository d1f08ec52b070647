//! The folded state of a swift-swords battle.

use std::collections::{BTreeMap, BTreeSet};

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::pending::Pending;
use crate::{
    dice::SealedDice,
    swift_swords::{
        action_dice,
        chariot::ChariotSpec,
        figure::{FearLevel, FigureSpec},
        options::BattleOptions,
        ranks::{RankSide, RankTrack},
        zones::{Direction, ZoneMap},
    },
};

/// Where the battle stands (seed 004 "Sequence of Play").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = SwiftSwordsPhase)]
pub enum Phase {
    /// No battle yet.
    #[default]
    Empty,
    /// Set up; the judge begins it (surprise decided) when ready.
    Setup,
    /// Actions in the order of the countdown.
    Countdown,
    /// A refresh was called: everyone else's last option (act, or carry a die over).
    Refresh,
    /// Over.
    Ended,
}

/// A State (seed 004 "State").
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = SwiftSwordsStateKind)]
pub enum StateKind {
    /// Physical: removed by a BODY roll.
    Stun,
    /// Mental: removed by a Mind roll.
    Shock,
    /// Magic: removed by a Soul roll.
    Doubt,
}

/// A figure's morale beyond its ranks (seed 004 "Mental Damage").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case", tag = "kind")]
#[schema(as = SwiftSwordsMorale)]
pub enum Morale {
    /// Steady.
    #[default]
    Steady,
    /// Panicked: flees; a Spirit roll at the start of every action after the first.
    Panicked {
        /// Whether its first (compulsory) action has been taken.
        fled: bool,
    },
    /// Crushed: does nothing, defends against nothing; a Spirit roll at the start of every
    /// action after the first.
    Crushed {
        /// Whether its first action (doing nothing) has been taken.
        waited: bool,
    },
}

/// An injury a figure carries (seed 004 "General Injury Table").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SwiftSwordsInjury)]
pub struct Injury {
    /// Where.
    pub location: crate::swift_swords::injury::Location,
    /// What.
    pub effect: crate::swift_swords::injury::InjuryEffect,
    /// Dice off its rolls (a "Bleeder -2d": off the BODY roll each round).
    pub roll_penalty: u32,
    /// A bleeder still bleeding (until treated).
    pub bleeding: bool,
}

/// A hold one figure has on another (seed 004 "InClose Combat").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SwiftSwordsHold)]
pub struct Hold {
    /// Who holds.
    pub holder: String,
    /// Who is held.
    pub victim: String,
    /// Its level: the damage class it inflicts (a base hold is Light).
    pub level: crate::swift_swords::figure::Weight,
    /// The grappling weapon (skill) it was applied with.
    pub weapon: String,
}

/// Defence a figure may still use until its next action (seed 004 "Special Tactics").
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
#[schema(as = SwiftSwordsDefenceLimit)]
pub enum DefenceLimit {
    /// Any.
    #[default]
    Any,
    /// Dodge only (after a double strike).
    DodgeOnly,
    /// None (after an all-out attack).
    None,
}

/// An action pool: dice accumulated for one action (seed 004 "Actions & Refresh").
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SwiftSwordsActionPool)]
pub struct ActionPool {
    /// What it is for (`cast fireball`, `aimed shot`).
    pub name: String,
    /// Dice added so far, each a bonus die when it is released.
    pub dice: u32,
}

/// One figure in the battle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Figure {
    /// As set up.
    pub spec: FigureSpec,
    /// The zone it is in.
    pub zone: String,
    /// Its melee group (InContact when an enemy shares it) or the friends it stands alone with.
    pub group: Option<String>,
    /// Opponents it is InClose with.
    pub close_with: BTreeSet<String>,
    /// Prone.
    pub prone: bool,
    /// The cover area it holds.
    pub cover: Option<String>,
    /// Action dice in hand, as faces.
    pub hand: Vec<u8>,
    /// A die carried over into the next round.
    pub carried: bool,
    /// Its last option of the round is taken (or it had none).
    pub done: bool,
    /// Holding its action.
    pub holding: bool,
    /// States it is in.
    pub states: BTreeSet<StateKind>,
    /// Panicked, crushed or steady.
    pub morale: Morale,
    /// Physical ranks.
    pub physical: RankTrack,
    /// Mental ranks.
    pub mental: RankTrack,
    /// Out of Action.
    pub out_of_action: bool,
    /// Killed in Action.
    pub killed: bool,
    /// Dodge pool (0: none).
    pub dodge_pool: u32,
    /// Block pool (0: none), the device's value included under the default `block_pool` reading.
    pub block_pool: u32,
    /// Action pool.
    pub action_pool: Option<ActionPool>,
    /// Exposure dice lying in front of it.
    pub exposures: u32,
    /// Fumbled: attackers gain a bonus SL.
    pub fumbled: bool,
    /// Injuries.
    pub injuries: Vec<Injury>,
    /// The judge's modifier to its action dice.
    pub ad_modifier: i32,
    /// Defence it may use until its next action.
    pub defence_limit: DefenceLimit,
    /// The worst fear it has passed a Spirit roll against.
    pub fear_passed: Option<FearLevel>,
    /// In the air.
    pub flying: bool,
    /// Its facing (flyers).
    pub facing: Direction,
    /// A flyer that attacked in melee: ground figures holding their action may strike it until its
    /// next action.
    pub swooped: bool,
    /// Weapons dropped.
    pub dropped: BTreeSet<String>,
    /// Weapons broken.
    pub broken: BTreeSet<String>,
    /// Armour removed by special results.
    pub armour_lost: u32,
    /// Hamstrung: every move needs a DEX roll.
    pub hamstrung: bool,
    /// The chariot it rides, or draws as its team.
    pub chariot: Option<String>,
    /// Figures that have attacked it this round.
    pub attackers: BTreeSet<String>,
    /// Weeks of natural healing it has had.
    pub weeks_healed: u32,
}

impl Figure {
    /// Whether it can still take part: neither Out of Action nor Killed.
    pub fn active(&self) -> bool {
        !self.out_of_action && !self.killed
    }

    /// Ranks of a side.
    pub fn ranks(&self, side: RankSide) -> &RankTrack {
        match side {
            RankSide::Physical => &self.physical,
            RankSide::Mental => &self.mental,
        }
    }

    /// Ranks of a side, mutably.
    pub fn ranks_mut(&mut self, side: RankSide) -> &mut RankTrack {
        match side {
            RankSide::Physical => &mut self.physical,
            RankSide::Mental => &mut self.mental,
        }
    }

    /// Dice that can pay for actions.
    pub fn usable(&self) -> u32 {
        action_dice::usable(&self.hand)
    }

    /// Whether it holds a 1.
    pub fn has_one(&self) -> bool {
        self.hand.contains(&1)
    }

    /// Dice burnt each round by its injuries.
    pub fn burn(&self) -> u32 {
        self.injuries.iter().map(|injury| crate::swift_swords::injury::mechanics(injury.effect).burn).sum()
    }

    /// Passive armour left.
    pub fn armour(&self) -> u32 {
        u32::from(self.spec.armour).saturating_sub(self.armour_lost)
    }

    /// Arms it can no longer use (hand, broken or severed arm).
    pub fn disabled_arms(&self) -> u32 {
        use crate::swift_swords::injury::InjuryEffect::{Broken, Hand, Sever};
        let arms: BTreeSet<_> = self
            .injuries
            .iter()
            .filter(|injury| injury.location.arm() && matches!(injury.effect, Hand | Broken | Sever))
            .map(|injury| injury.location)
            .collect();
        u32::try_from(arms.len()).unwrap_or(2)
    }

    /// Every move needs a DEX roll (Balance, a Foot, a broken leg, a hamstring).
    pub fn unsteady(&self) -> bool {
        use crate::swift_swords::injury::InjuryEffect::{Balance, Broken, Foot, Sever};
        self.hamstrung
            || self.injuries.iter().any(|injury| {
                matches!(injury.effect, Balance | Foot)
                    || (injury.location.leg() && matches!(injury.effect, Broken | Sever))
            })
    }
}

/// A side of the battle.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[serde(deny_unknown_fields)]
#[schema(as = SwiftSwordsSide)]
pub struct SideSpec {
    /// Its name (`heroes`, `goblins`).
    pub name: String,
    /// The player it is fought for, for a campaign battle fought out under these rules; absent
    /// for the GM's side.
    #[serde(default)]
    pub controller: Option<String>,
}

/// The state of one battle stream.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct SwiftSwordsState {
    /// Where it stands.
    pub phase: Phase,
    /// The dice: commitment, entropy, tape position, reveal.
    pub dice: SealedDice,
    /// The battle's readings.
    pub options: BattleOptions,
    /// The zones.
    pub map: ZoneMap,
    /// The sides.
    pub sides: Vec<SideSpec>,
    /// Every figure, by id.
    pub figures: BTreeMap<String, Figure>,
    /// Chariots, by id.
    pub chariots: BTreeMap<String, ChariotState>,
    /// Holds in place.
    pub holds: Vec<Hold>,
    /// The round (0 for a surprise round).
    pub round: u32,
    /// Sides surprised this round.
    pub surprised: Vec<String>,
    /// Who called the refresh.
    pub refresh_called_by: Option<String>,
    /// The figure whose action is being resolved.
    pub acting: Option<String>,
    /// What is awaited before anything else happens (top of the stack last).
    pub pending: Vec<Pending>,
    /// Counter for melee groups and attacks.
    pub next_id: u32,
    /// The winning side, once decided.
    pub winner: Option<String>,
    /// Why it ended.
    pub ended_reason: Option<String>,
}

/// A chariot in play.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = SwiftSwordsChariotState)]
pub struct ChariotState {
    /// As set up (its crew kept current).
    pub spec: ChariotSpec,
    /// Where it faces.
    pub facing: Direction,
    /// Flipped over: wrecked.
    pub flipped: bool,
}

impl SwiftSwordsState {
    /// Whether a battle was created.
    pub fn created(&self) -> bool {
        self.phase != Phase::Empty
    }

    /// Whether it is over.
    pub fn ended(&self) -> bool {
        self.phase == Phase::Ended
    }

    /// A figure.
    pub fn figure(&self, id: &str) -> Option<&Figure> {
        self.figures.get(id)
    }

    /// Whether two figures are enemies (on different sides).
    pub fn enemies(&self, a: &str, b: &str) -> bool {
        match (self.figures.get(a), self.figures.get(b)) {
            (Some(a), Some(b)) => a.spec.side != b.spec.side,
            _ => false,
        }
    }

    /// Active figures of a group.
    pub fn group_members(&self, group: &str) -> Vec<&Figure> {
        self.figures.values().filter(|figure| figure.group.as_deref() == Some(group) && figure.active()).collect()
    }

    /// Whether a figure is InContact: in a group with an active enemy (seed 004 "InContact":
    /// "To be InContact there must be an enemy present in the group").
    pub fn in_contact(&self, id: &str) -> bool {
        let Some(figure) = self.figures.get(id) else { return false };
        let Some(group) = figure.group.as_deref() else { return false };
        self.group_members(group).iter().any(|other| other.spec.side != figure.spec.side)
    }

    /// Active enemies sharing a figure's group.
    pub fn enemies_in_group(&self, id: &str) -> Vec<String> {
        let Some(figure) = self.figures.get(id) else { return vec![] };
        let Some(group) = figure.group.as_deref() else { return vec![] };
        self.group_members(group)
            .iter()
            .filter(|other| other.spec.side != figure.spec.side)
            .map(|other| other.spec.id.clone())
            .collect()
    }

    /// The hold on a victim, if any.
    pub fn hold_on(&self, victim: &str) -> Option<&Hold> {
        self.holds.iter().find(|hold| hold.victim == victim)
    }

    /// The hold a figure has, if any.
    pub fn hold_by(&self, holder: &str) -> Option<&Hold> {
        self.holds.iter().find(|hold| hold.holder == holder)
    }

    /// Whether a figure's side is surprised this round.
    pub fn surprised(&self, id: &str) -> bool {
        self.figures.get(id).is_some_and(|figure| self.surprised.contains(&figure.spec.side))
    }

    /// Sides with a figure still able to fight.
    pub fn standing_sides(&self) -> Vec<String> {
        self.sides
            .iter()
            .filter(|side| self.figures.values().any(|figure| figure.spec.side == side.name && figure.active()))
            .map(|side| side.name.clone())
            .collect()
    }

    /// The dice cursor.
    pub fn dice_cursor(&self) -> Option<crate::DiceCursor> {
        self.dice.cursor(self.ended())
    }
}
