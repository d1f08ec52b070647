//! Writing orders back as the seed's text (seed 003 §3.2.2.5, §3.2.3.1, §3.2.4.2, §3.2.5.1): the
//! canonical line a judge re-posts for a private order (§3.1) and the movement report quotes.
//!
//! [`super::text::parse_line`] reads every line written here back to the same order, with two
//! deliberate exceptions: a transfer's troops are never written, because the seed has them sent
//! privately to the judge (§3.2.4.2) and printing them in the thread would show them to the enemy;
//! and a move names each square once, so its legs are chained by construction (a leg that does
//! not start where the previous one ended cannot be written, and is refused by validation anyway).

use std::fmt::Write as _;

use super::{Annotation, Order, PostedOrder};

/// The canonical line for a posted order: `Sai Rei: 3D > 5E; replace Darkhand5`.
///
/// The army's name is always written, even when it is the poster's own (§3.2.2.5 lets players
/// leave it off; a judge re-posting a private order must not).
pub fn format_order(posted: &PostedOrder) -> String {
    format!("{}: {}", posted.army, format_body(&posted.order))
}

/// The order without the army's name: `3D > 5E; replace Darkhand5`, `Intercept Darkhand5`,
/// `Transfer to Darkhand5 at 4F`, `hold`.
///
/// A move without legs moves nowhere, so it is written `hold`.
pub fn format_body(order: &Order) -> String {
    match order {
        Order::Move { legs } => {
            let Some(first) = legs.first() else {
                return "hold".to_string();
            };
            let mut text = first.from.to_string();
            for leg in legs {
                // Writing to a String cannot fail.
                let _ = write!(text, " > {}", leg.to);
                if let Some(route) = &leg.route {
                    let squares: Vec<String> = route.iter().map(ToString::to_string).collect();
                    let _ = write!(text, " ({})", squares.join(" - "));
                }
                if let Some(annotation) = &leg.annotation {
                    let _ = write!(text, "; {}", format_annotation(annotation));
                }
            }
            text
        }
        Order::Hold => "hold".to_string(),
        Order::Disband => "disband".to_string(),
        Order::Intercept { target } => format!("Intercept {target}"),
        Order::Transfer { to, at, .. } => format!("Transfer to {to} at {at}"),
    }
}

/// `engage X`, `replace X` or `Joint Engage` (§3.2.2.2, §3.2.5.1).
pub fn format_annotation(annotation: &Annotation) -> String {
    match annotation {
        Annotation::Engage(army) => format!("engage {army}"),
        Annotation::Replace(army) => format!("replace {army}"),
        Annotation::JointEngage => "Joint Engage".to_string(),
    }
}
