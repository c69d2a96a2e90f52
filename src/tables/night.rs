//! What a change of a table plays, typed: a create request read at the
//! edge ([`CreateTable`]), a hand to append ([`NewHand`]), and the plays
//! that turn them, with the head, into what is stored. A night is played
//! hand by hand (`service::wire::night`), so an append or an undo plays or
//! drops one hand. Pure CPU: the HTTP layer runs a whole night on its
//! blocking pool and one hand where it is, and stores the results through
//! [`super::Live`].

use super::json::{self, NightSummary};
use crate::api::json::parse_checked;
use crate::api::tables::{GroupRef, TableCreateRequest};
use crate::api::{ApiError, LedgerHandDto, LedgerRequest};
use crate::core::ledger::PLAYERS;
use crate::service::wire::night::NightState;
use crate::service::Service;
use crate::store::{HandRow, TableRow};

/// The longest title and group name, in characters.
pub const MAX_NAME: usize = 64;

/// JSON without the whitespace between its tokens, so that what is stored
/// is one line (an event's `data:` must be) whatever the client sent. The
/// text is valid JSON already (it was parsed).
pub fn compact(json: &str) -> String {
    let mut out = String::with_capacity(json.len());
    let (mut in_string, mut escaped) = (false, false);
    for c in json.chars() {
        if in_string {
            out.push(c);
            if escaped {
                escaped = false;
            } else if c == '\\' {
                escaped = true;
            } else if c == '"' {
                in_string = false;
            }
        } else if !matches!(c, ' ' | '\n' | '\r' | '\t') {
            in_string = c == '"';
            out.push(c);
        }
    }
    out
}

/// `POST /v1/tables`, checked: the title, the group named, and the ledger
/// request as the night (without its hands) and its hands, each compact.
#[derive(Debug)]
pub struct CreateTable {
    pub title: Option<String>,
    pub group: Option<GroupRef>,
    /// The ledger request without `hands`: `{"ruleset":…,"players":…}`.
    pub night: String,
    pub hands: Vec<String>,
}

impl TryFrom<TableCreateRequest<'_>> for CreateTable {
    type Error = ApiError;

    fn try_from(r: TableCreateRequest<'_>) -> Result<Self, ApiError> {
        let title = match r.title {
            Some(t) if !(1..=MAX_NAME).contains(&t.chars().count()) => {
                return Err(ApiError::field(
                    "/title",
                    format!("expected a string of 1 to {MAX_NAME} characters"),
                ))
            }
            t => t,
        };
        let mut night = String::from("{");
        let mut field = |name: &str, v: Option<&serde_json::value::RawValue>| {
            if let Some(v) = v {
                if night.len() > 1 {
                    night.push(',');
                }
                night.push('"');
                night.push_str(name);
                night.push_str("\":");
                night.push_str(&compact(v.get()));
            }
        };
        field("ruleset", Some(r.ruleset));
        field("house_rules", r.house_rules);
        field("players", Some(r.players));
        field("start", r.start);
        night.push('}');
        let hands = r
            .hands
            .unwrap_or_default()
            .iter()
            .map(|h| compact(h.get()))
            .collect();
        Ok(CreateTable {
            title,
            group: r.group,
            night,
            hands,
        })
    }
}

/// The night (without hands) and hands of a whole ledger request as an
/// older faan stored it.
pub fn parts_of_whole(request: &str) -> Result<(String, Vec<String>), ApiError> {
    let r: TableCreateRequest<'_> = serde_json::from_str(request)
        .map_err(|e| ApiError::field("", format!("a stored request does not read: {e}")))?;
    let c = CreateTable::try_from(r)?;
    Ok((c.night, c.hands))
}

/// A hand to append, compact.
#[derive(Debug)]
pub struct NewHand(pub String);

/// A night's request read from its stored parts: the night with `hands`
/// (as the ledger request has them).
fn with_hands(night: &str, hands: &[String]) -> String {
    let mut s =
        String::with_capacity(night.len() + 12 + hands.iter().map(String::len).sum::<usize>());
    s.push_str(night.strip_suffix('}').unwrap_or(night));
    if s.len() > 1 {
        s.push(',');
    }
    s.push_str("\"hands\":[");
    for (i, h) in hands.iter().enumerate() {
        if i > 0 {
            s.push(',');
        }
        s.push_str(h);
    }
    s.push_str("]}");
    s
}

/// What a change stores on the head besides its version.
#[derive(Debug)]
pub struct Head {
    /// The answer without its hands.
    pub ledger: String,
    /// What a group shows (`NightSummary`).
    pub summary: String,
    /// The night after the change (`NightState`).
    pub state: String,
}

/// A night played from its start: its hands and head.
#[derive(Debug)]
pub struct PlayedNight {
    pub hands: Vec<HandRow>,
    pub head: Head,
}

/// A hand played onto a night.
#[derive(Debug)]
pub struct PlayedHand {
    pub hand: HandRow,
    pub head: Head,
}

fn head(players: &[String; PLAYERS], state: &NightState, ledger: Vec<u8>) -> Head {
    let l = &state.ledger;
    let summary = NightSummary {
        players: players.clone(),
        hands: l.hands,
        points: l.balances,
        money: l.any_money.then_some(l.money_balances),
        stats: l.stats,
    };
    Head {
        // The ledger writer writes UTF-8.
        ledger: String::from_utf8(ledger).unwrap_or_default(),
        summary: json::to_string(&summary),
        state: json::to_string(state),
    }
}

fn players(r: &LedgerRequest<'_>) -> [String; PLAYERS] {
    // The ledger checked there are four.
    std::array::from_fn(|p| r.players.get(p).map_or_else(String::new, |s| s.to_string()))
}

/// Plays a whole night (a new table, or one an older faan stored whole):
/// the problem `POST /v1/ledger` answers for it, or its hands and head.
pub fn play_night(
    service: &Service,
    night: &str,
    hands: &[String],
) -> Result<PlayedNight, ApiError> {
    let whole = with_hands(night, hands);
    let depth = service.limits().json_depth;
    let r: LedgerRequest<'_> = parse_checked(whole.as_bytes(), depth)?;
    // The whole ledger first: a bad night answers exactly its problem.
    if !r.hands.is_empty() {
        service.ledger_request(&r)?;
    }
    let (mut state, mut ledger) = service.night_start(&r)?;
    let mut rows = Vec::with_capacity(hands.len());
    for (dto, request) in r.hands.iter().zip(hands) {
        let step = service.night_play(&r, &state, dto)?;
        rows.push(HandRow {
            request: request.clone(),
            answer: String::from_utf8(step.row).unwrap_or_default(),
            state: json::to_string(&step.state),
        });
        state = step.state;
        ledger = step.summary;
    }
    Ok(PlayedNight {
        hands: rows,
        head: head(&players(&r), &state, ledger),
    })
}

/// The night of a head, read back.
fn night_of<'a>(service: &Service, whole: &'a str) -> Result<LedgerRequest<'a>, ApiError> {
    parse_checked(whole.as_bytes(), service.limits().json_depth)
}

fn state_of(text: Option<&str>) -> Result<NightState, ApiError> {
    // Written by this module; unreadable only if the store was damaged.
    serde_json::from_str(text.unwrap_or_default())
        .map_err(|e| ApiError::field("/hands", format!("the stored night is unreadable: {e}")))
}

/// Plays `hand` onto the table `row`: the problem the ledger answers for
/// the night with it (pointing at `/hands/{n}`), or the stored hand and
/// the new head.
pub fn play_hand(
    service: &Service,
    row: &TableRow,
    hand: &NewHand,
) -> Result<PlayedHand, ApiError> {
    let whole = with_hands(&row.night, &[]);
    let r = night_of(service, &whole)?;
    let state = state_of(row.state.as_deref())?;
    let n = state.ledger.hands;
    let dto: LedgerHandDto<'_> = parse_checked(hand.0.as_bytes(), service.limits().json_depth)
        .map_err(|e| e.under(&format!("/hands/{n}")))?;
    let step = service.night_play(&r, &state, &dto)?;
    Ok(PlayedHand {
        hand: HandRow {
            request: hand.0.clone(),
            answer: String::from_utf8(step.row).unwrap_or_default(),
            state: json::to_string(&step.state),
        },
        head: head(&players(&r), &step.state, step.summary),
    })
}

/// The head of the table `row` without its last hand, whose night before
/// it is `before` (the state stored with the hand before; `None`: the
/// night's start).
pub fn play_undo(
    service: &Service,
    row: &TableRow,
    before: Option<&str>,
) -> Result<Head, ApiError> {
    let whole = with_hands(&row.night, &[]);
    let r = night_of(service, &whole)?;
    let state = match before {
        Some(s) => state_of(Some(s))?,
        None => service.night_start(&r)?.0,
    };
    let ledger = service.night_summary(&r, &state)?;
    Ok(head(&players(&r), &state, ledger))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn compact_keeps_strings_and_drops_the_space_between_tokens() {
        // Spaces, tabs and newlines between tokens go; those inside a
        // string, and an escaped quote, stay.
        assert_eq!(
            compact("{ \"a b\" :\n [1,\t2],\"c\":\"x\\\" y\" }"),
            "{\"a b\":[1,2],\"c\":\"x\\\" y\"}"
        );
    }

    #[test]
    fn a_night_takes_its_hands_last() {
        assert_eq!(
            with_hands(r#"{"ruleset":"hkma"}"#, &["{}".into(), "{\"x\":1}".into()]),
            r#"{"ruleset":"hkma","hands":[{},{"x":1}]}"#
        );
        assert_eq!(with_hands("{}", &[]), r#"{"hands":[]}"#);
    }
}
