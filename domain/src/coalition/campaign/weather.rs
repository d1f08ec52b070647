//! The weather posted with each battle (seed 003 §4.1.2.5): "There will be a complex system to
//! determine the weather conditions for each battle. However, you don't have to worry about how it
//! is calculated–the weather conditions will be posted alongside the battle when it happens."
//!
//! Herald's documented table: one d20 on the campaign's tape when a battle is announced (unless
//! the round's option `roll_weather` is off, when the Battle Judge posts the weather in the
//! battle). The judge may post other weather in the battle stream at any time before it ends.

use serde::{Deserialize, Serialize};
use utoipa::ToSchema;

use crate::{
    coalition::map::Square,
    dice::{DiceTape, Draw},
    RuleError,
};

/// The weather table: the highest face of each band and what it means.
pub const WEATHER_TABLE: [(u32, &str); 10] = [
    (5, "clear skies"),
    (8, "overcast"),
    (10, "morning fog"),
    (12, "light rain"),
    (13, "heavy rain"),
    (15, "strong winds"),
    (16, "thunderstorm"),
    (17, "snow and sleet"),
    (19, "heat haze"),
    (20, "gale"),
];

/// The weather of a face of the d20.
pub fn weather_of(face: u32) -> &'static str {
    WEATHER_TABLE.iter().find(|(top, _)| face <= *top).map_or("clear skies", |(_, weather)| weather)
}

/// A battle's weather rolled on the table (event `coalition.WeatherRolled`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize, ToSchema)]
pub struct WeatherRolled {
    /// The battle stream.
    pub battle: String,
    /// Where.
    pub square: Square,
    /// The weather.
    pub weather: String,
    /// The d20.
    pub draw: Draw,
}

/// Roll a battle's weather.
pub fn roll(battle: &str, square: Square, tape: &mut DiceTape) -> Result<WeatherRolled, RuleError> {
    let draw = tape.roll(20, format!("weather for the battle at {square}"))?;
    Ok(WeatherRolled { battle: battle.to_string(), square, weather: weather_of(draw.value).to_string(), draw })
}
