//! The folded state of a zone-rpg fight, and the questions the decider, the view and the
//! picture ask of it.

mod apply;
pub mod character;
mod fold_attacks;
mod fold_combat;
mod fold_gear;
mod fold_turns;
pub mod pending;
pub mod turn;

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use self::{
    character::{CharacterState, TurnUse},
    pending::{InterruptedMove, PendingAttack},
    turn::TurnState,
};
use super::{
    character::{gear::ZoneItem, FactionSpec},
    map::ZoneMap,
    options::ZoneRpgOptions,
};
use crate::dice::SealedDice;

/// Where the fight stands.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
#[schema(as = ZoneRpgPhase)]
#[serde(rename_all = "snake_case")]
pub enum Phase {
    /// Not set up yet.
    #[default]
    Setup,
    /// Set up; the first round has not started.
    Ready,
    /// A round is being played.
    Round,
    /// Between two rounds.
    BetweenRounds,
    /// Over.
    Ended,
}

/// A zone-rpg fight.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ZoneRpgState {
    /// The zones and borders.
    pub map: ZoneMap,
    /// The factions, in the order they were listed.
    pub factions: Vec<FactionSpec>,
    /// The characters, in the order they were listed.
    pub characters: Vec<CharacterState>,
    /// The readings.
    pub options: ZoneRpgOptions,
    /// The dice.
    pub dice: SealedDice,
    /// The faction holding the initiative, once known.
    pub initiative: Option<String>,
    /// Where the fight stands.
    pub phase: Phase,
    /// The current (or last) round: 0 is the bonus round.
    pub round: u32,
    /// Rounds started so far.
    pub rounds_started: u32,
    /// The current round is the concealed characters' bonus round.
    pub bonus_round: bool,
    /// The faction that acted first this round.
    pub first_faction: Option<String>,
    /// The faction whose go it is.
    pub current_faction: Option<String>,
    /// Consecutive passes.
    pub consecutive_passes: u32,
    /// The turn in progress.
    pub turn: Option<TurnState>,
    /// The attack waiting for a stunt answer or reactions.
    pub pending_attack: Option<PendingAttack>,
    /// The move stopped for opportunity attacks.
    pub interrupted_move: Option<InterruptedMove>,
    /// Attacks declared so far.
    pub attacks: u32,
    /// Items lying in zones.
    pub items: Vec<ZoneItem>,
    /// The winning faction.
    pub winner: Option<String>,
    /// Why it ended.
    pub ended_reason: Option<String>,
}

impl ZoneRpgState {
    /// Whether the fight has been set up.
    pub fn created(&self) -> bool {
        self.phase != Phase::Setup
    }

    /// Whether it is over.
    pub fn ended(&self) -> bool {
        self.phase == Phase::Ended
    }

    /// The character `id`.
    pub fn character(&self, id: &str) -> Option<&CharacterState> {
        self.characters.iter().find(|character| character.spec.id == id)
    }

    /// The character `id`, mutably.
    pub fn character_mut(&mut self, id: &str) -> Option<&mut CharacterState> {
        self.characters.iter_mut().find(|character| character.spec.id == id)
    }

    /// The faction `name`.
    pub fn faction(&self, name: &str) -> Option<&FactionSpec> {
        self.factions.iter().find(|faction| faction.name == name)
    }

    /// The player controlling `character`: its own controller, else its faction's; `None` for
    /// the GM's characters.
    pub fn controller_of<'s>(&'s self, character: &'s CharacterState) -> Option<&'s str> {
        character
            .spec
            .controller
            .as_deref()
            .or_else(|| self.faction(character.faction()).and_then(|faction| faction.controller.as_deref()))
    }

    /// The players of a faction: its controller and the controllers of its characters.
    pub fn players_of(&self, faction: &str) -> Vec<&str> {
        let mut players: Vec<&str> = self.faction(faction).and_then(|f| f.controller.as_deref()).into_iter().collect();
        for character in self.characters.iter().filter(|c| c.faction() == faction) {
            if let Some(player) = self.controller_of(character) {
                if !players.contains(&player) {
                    players.push(player);
                }
            }
        }
        players
    }

    /// The riders or passengers on `mount`.
    pub fn riders_of(&self, mount: &str) -> Vec<&CharacterState> {
        self.characters.iter().filter(|c| c.riding.as_deref() == Some(mount) && c.present()).collect()
    }

    /// The characters that take a turn with `character`: its mount or vehicle first, then the
    /// riders (seed 001 "Mounts and vehicles in combat": "take turn together").
    pub fn turn_group(&self, character: &CharacterState) -> Vec<String> {
        let mount = character.riding.as_deref().unwrap_or(character.id());
        let mut group = vec![mount.to_string()];
        group.extend(self.riders_of(mount).iter().map(|rider| rider.id().to_string()));
        group
    }

    /// Whether `character` may take a turn now: not taken this round, standing, not
    /// surrendering; in the bonus round only characters that launched the ambush (seed 001
    /// "Sneaking in combat": "during which only they can act").
    pub fn may_take_turn(&self, character: &CharacterState) -> bool {
        character.turn == TurnUse::Available
            && character.standing()
            && !character.surrendered
            && (!self.bonus_round || character.ambusher)
    }

    /// Whether `faction` has a character left to take a turn with (seed 001 "Combat
    /// procedure": "The GM must pass because all bandits have taken their turn").
    pub fn faction_can_act(&self, faction: &str) -> bool {
        self.characters.iter().any(|c| c.faction() == faction && self.may_take_turn(c))
    }

    /// The faction after `faction` in the order they were listed.
    pub fn next_faction(&self, faction: &str) -> Option<&str> {
        let index = self.factions.iter().position(|f| f.name == faction)?;
        let next = (index + 1) % self.factions.len();
        self.factions.get(next).map(|f| f.name.as_str())
    }

    /// Whether `target` can be seen by `observer` (seed 001 "Attacking": not in complete
    /// darkness; seed 001 "Sneaking in combat": concealed characters are not seen by the other
    /// side).
    pub fn visible_to(&self, target: &CharacterState, observer: &CharacterState) -> bool {
        let concealed = target.concealed && target.faction() != observer.faction();
        !concealed && !self.map.dark(&target.zone)
    }

    /// The factions still with characters fighting.
    pub fn standing_factions(&self) -> Vec<&str> {
        self.factions
            .iter()
            .map(|f| f.name.as_str())
            .filter(|name| self.characters.iter().any(|c| c.faction() == *name && c.fighting()))
            .collect()
    }
}
