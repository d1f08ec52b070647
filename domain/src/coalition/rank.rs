//! Player ranks on both teams' ladders (seed 003 §1.1.1, §1.1.2) and the army rank classes they
//! command (§2.1).

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use super::army::{RankClass, Team};

/// A player's rank.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize, ToSchema)]
#[serde(rename_all = "snake_case")]
pub enum Rank {
    /// Phyrexia's leader.
    ChiefPraetor,
    /// One of Phyrexia's two leaders after the Chief Praetor.
    Praetor,
    /// Phyrexian rank matching Captain.
    Evincar,
    /// Phyrexian rank matching Commander.
    Plaguelord,
    /// Phyrexian rank matching Lt. Commander.
    Cpl,
    /// Phyrexian rank matching Lieutenant.
    Centurion,
    /// Phyrexian rank that cannot control armies (seed 003 §1.1.1).
    Drudge,
    /// The Coalition's leader.
    General,
    /// One of the Coalition's two leaders after the General.
    Admiral,
    /// Coalition faction captain.
    Captain,
    /// Coalition Commander.
    Commander,
    /// Coalition Lt. Commander.
    LtCommander,
    /// Coalition Lieutenant.
    Lieutenant,
    /// Coalition rank that cannot control armies (seed 003 §1.1.2).
    Cadet,
}

impl Rank {
    /// The team whose ladder the rank is on.
    pub fn team(self) -> Team {
        match self {
            Self::ChiefPraetor
            | Self::Praetor
            | Self::Evincar
            | Self::Plaguelord
            | Self::Cpl
            | Self::Centurion
            | Self::Drudge => Team::Phyrexia,
            _ => Team::Coalition,
        }
    }

    /// The army rank class of this rank; `None` for Drudge and Cadet, who control no armies.
    pub fn class(self) -> Option<RankClass> {
        Some(match self {
            Self::ChiefPraetor | Self::General => RankClass::ChiefPraetorGeneral,
            Self::Praetor | Self::Admiral => RankClass::PraetorAdmiral,
            Self::Evincar | Self::Captain => RankClass::EvincarCaptain,
            Self::Plaguelord | Self::Commander => RankClass::PlaguelordCommander,
            Self::Cpl | Self::LtCommander => RankClass::CplLtCommander,
            Self::Centurion | Self::Lieutenant => RankClass::CenturionLieutenant,
            Self::Drudge | Self::Cadet => return None,
        })
    }

    /// Whether the rank is one of the team's three leaders (seed 003 §1.1, §1.4.1).
    pub fn is_leader(self) -> bool {
        matches!(self, Self::ChiefPraetor | Self::Praetor | Self::General | Self::Admiral)
    }
}

impl RankClass {
    /// Troops per slot, largest slot count first: 5000, 2500, 1500, 1000 (seed 003 §2.1).
    pub const SLOT_TROOPS: [u32; 4] = [5000, 2500, 1500, 1000];

    /// The maximum power/toughness of each of the four slots, smallest first (seed 003 §2.1).
    pub fn slot_sizes(self) -> [u32; 4] {
        let smallest = self.smallest_slot_size();
        [smallest, smallest + 1, smallest + 2, smallest + 3]
    }

    /// Whether armies of this class are Captain/Evincar or higher (seed 003 §1.7.3, §3.2.5.4).
    pub fn is_captain_or_above(self) -> bool {
        self <= RankClass::EvincarCaptain
    }
}
