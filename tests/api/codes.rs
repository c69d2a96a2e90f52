//! Every problem of a hand and of the circumstances of its win carries the
//! rule's `code` and the values its message names (`params`), so a client
//! words it in its own language (the page: web/js/format.js). One case per
//! code of the contract (`ProblemError.code` in openapi.json), each worked
//! out from the rule it breaks.

use crate::helpers::spawn_app;
use serde_json::{json, Value};

/// South's quiet hand 234m 567m 345p 678s 22s, self-drawn on 5p (valid
/// under every ruleset); each case changes what it needs.
fn base() -> Value {
    json!({"ruleset": "wisteria-court",
        "hand": {"tiles": "234m567m345p678s22s", "winning_tile": "5p"},
        "context": {"win_by": "self_draw", "seat_wind": "south", "round_wind": "east"}})
}

/// `base()` with `patch` merged in (RFC 7396: null removes).
fn with(patch: Value) -> Value {
    let mut v = base();
    json_patch::merge(&mut v, &patch);
    v
}

/// A waits request: South's hand without a winning tile.
fn waits(tiles: &str, extra: Value) -> Value {
    let mut v = json!({"ruleset": "wisteria-court",
        "hand": {"tiles": tiles},
        "context": {"seat_wind": "south", "round_wind": "east"}});
    json_patch::merge(&mut v, &extra);
    v
}

struct Case {
    code: &'static str,
    path: &'static str,
    body: Value,
    pointer: &'static str,
    params: Value,
}

fn case(code: &'static str, body: Value, pointer: &'static str, params: Value) -> Case {
    Case {
        code,
        path: "/v1/score",
        body,
        pointer,
        params,
    }
}

/// West and North win on East's 2s (POST /v1/settle), North's context and
/// hand patched.
fn co_case(
    code: &'static str,
    context: Value,
    hand: Value,
    pointer: &'static str,
    params: Value,
) -> Case {
    let mut north = json!({"hand": {"tiles": "234m567m345p678s22s", "winning_tile": "2s"},
        "context": {"win_by": "discard", "discarder": "east", "seat_wind": "north", "round_wind": "east"}});
    json_patch::merge(&mut north["context"], &context);
    json_patch::merge(&mut north["hand"], &hand);
    Case {
        code,
        path: "/v1/settle",
        body: json!({"ruleset": "wisteria-court", "winners": [
            {"hand": {"tiles": "234m567m345p678s22s", "winning_tile": "2s"},
             "context": {"win_by": "discard", "discarder": "east", "seat_wind": "west", "round_wind": "east"}},
            north]}),
        pointer,
        params,
    }
}

/// A night of Ann (who deals: East), Ben (South), Cat (West) and Dan
/// (North) under wisteria-court (POST /v1/ledger), `patch` merged in.
fn ledger_case(
    code: &'static str,
    hands: Value,
    patch: Value,
    pointer: &'static str,
    params: Value,
) -> Case {
    let mut body = json!({"ruleset": "wisteria-court",
        "players": ["Ann", "Ben", "Cat", "Dan"], "hands": hands});
    json_patch::merge(&mut body, &patch);
    Case {
        code,
        path: "/v1/ledger",
        body,
        pointer,
        params,
    }
}

/// Ben's quiet hand (`base()`'s), his win in a ledger hand with `context`.
fn ben_wins(context: Value) -> Value {
    json!({"result": "win", "winners": [{"player": "Ben",
        "hand": {"tiles": "234m567m345p678s22s", "winning_tile": "5p"}, "context": context}]})
}

fn cases() -> Vec<Case> {
    let kong = |tiles: &str| json!({"kind": "kong", "tiles": tiles});
    vec![
        // 'x' is no tile: the notation's own message, at the 4th character.
        case(
            "tile_notation",
            with(json!({"hand": {"tiles": "234x567m345p678s22s"}})),
            "/hand/tiles",
            json!(null),
        ),
        case(
            "bonus_notation",
            with(json!({"hand": {"flowers": ["X9"]}})),
            "/hand/flowers/0",
            json!({"text": "X9"}),
        ),
        case(
            "meld_flag_not_kong",
            with(
                json!({"hand": {"tiles": "234m567m345p22s", "melds": [{"kind": "pung", "tiles": "777s", "concealed": true}]}}),
            ),
            "/hand/melds/0/concealed",
            json!({"flag": "concealed", "kind": "pung"}),
        ),
        case(
            "kong_concealed_and_added",
            with(
                json!({"hand": {"tiles": "234m567m345p22s", "melds": [{"kind": "kong", "tiles": "7777s", "concealed": true, "added": true}]}}),
            ),
            "/hand/melds/0/added",
            json!({}),
        ),
        // Five tiles do not fit a meld at all: no tiles are named.
        case(
            "meld_too_long",
            with(
                json!({"hand": {"tiles": "234m567m345p22s", "melds": [{"kind": "pung", "tiles": "77777s"}]}}),
            ),
            "/hand/melds/0/tiles",
            json!({"kind": "pung", "want": 3, "got": 5}),
        ),
        case(
            "meld_size",
            with(
                json!({"hand": {"tiles": "234m567m345p22s", "melds": [{"kind": "pung", "tiles": "7777s"}]}}),
            ),
            "/hand/melds/0/tiles",
            json!({"kind": "pung", "want": 3, "got": 4, "tiles": "7777s"}),
        ),
        case(
            "not_a_chow",
            with(
                json!({"hand": {"tiles": "234m567m345p22s", "melds": [{"kind": "chow", "tiles": "135m"}]}}),
            ),
            "/hand/melds/0/tiles",
            json!({"tiles": "135m"}),
        ),
        case(
            "not_a_set",
            with(
                json!({"hand": {"tiles": "234m567m345p22s", "melds": [{"kind": "pung", "tiles": "778s"}]}}),
            ),
            "/hand/melds/0/tiles",
            json!({"tiles": "778s", "kind": "pung", "want": 3}),
        ),
        // More digits than any hand (33) are refused before validation.
        case(
            "too_many_tiles",
            with(json!({"hand": {"tiles": "123456789123456789123456789123456m"}})),
            "/hand/tiles",
            json!({"count": 33, "max": 32}),
        ),
        case(
            "too_many_melds",
            with(
                json!({"hand": {"tiles": "22s", "winning_tile": "2s", "melds": [kong("1111m"), kong("2222m"), kong("3333m"), kong("4444m"), kong("5555m")]}}),
            ),
            "/hand/melds",
            json!({"got": 5}),
        ),
        Case {
            code: "winning_tile_while_waiting",
            path: "/v1/waits",
            body: waits(
                "234m567m345p678s2s",
                json!({"hand": {"winning_tile": "2s"}}),
            ),
            pointer: "/hand/winning_tile",
            params: json!({}),
        },
        case(
            "winning_tile_required",
            with(json!({"hand": {"winning_tile": null}})),
            "/hand/winning_tile",
            json!({}),
        ),
        case(
            "winning_tile_not_in_hand",
            with(json!({"hand": {"winning_tile": "9m"}})),
            "/hand/winning_tile",
            json!({"tile": "9m"}),
        ),
        case(
            "bonus_twice",
            with(json!({"hand": {"flowers": ["F1", "F1"]}})),
            "/hand/flowers/1",
            json!({"bonus": "F1"}),
        ),
        // Eight bonus tiles, then a ninth: past the eighth nothing is read.
        case(
            "too_many_bonus_tiles",
            with(
                json!({"hand": {"flowers": ["F1", "F2", "F3", "F4", "S1", "S2", "S3", "S4", "F1"]}}),
            ),
            "/hand/flowers/8",
            json!({"max": 8, "count": 9}),
        ),
        // HKMA plays without flowers unless a house rule turns them on.
        case(
            "bonus_off",
            with(json!({"ruleset": "hkma", "hand": {"flowers": ["F1"]}})),
            "/hand/flowers",
            json!({"ruleset": "hkma"}),
        ),
        // 1m five times: four in the kong, one in the hand.
        case(
            "tile_over_four",
            with(
                json!({"hand": {"tiles": "1m567m345p678s22s", "winning_tile": "5p", "melds": [kong("1111m")]}}),
            ),
            "/hand/tiles",
            json!({"tile": "1m", "count": 5}),
        ),
        // West and North both win on East's 2s, each with a pung of 1m: six
        // 1m between them once West's are counted.
        Case {
            code: "winners_tile_over_four",
            path: "/v1/settle",
            body: json!({"ruleset": "wisteria-court", "winners": [
                {"hand": {"tiles": "111m567m345p678s22s", "winning_tile": "2s"},
                 "context": {"win_by": "discard", "discarder": "east", "seat_wind": "west", "round_wind": "east"}},
                {"hand": {"tiles": "111m789m345p678s22s", "winning_tile": "2s"},
                 "context": {"win_by": "discard", "discarder": "east", "seat_wind": "north", "round_wind": "east"}}]}),
            pointer: "/winners/1/hand/tiles",
            params: json!({"tile": "1m", "count": 6}),
        },
        // Co-winners on one discard must agree (coded, the ledger
        // adding the players' names). West wins on East's 2s; North's hand
        // differs in one way each.
        // Both self-drawn: a self-draw has one winner.
        Case {
            code: "co_winner_self_draw",
            path: "/v1/settle",
            body: json!({"ruleset": "wisteria-court", "winners": [
                {"hand": {"tiles": "234m567m345p678s22s", "winning_tile": "2s"},
                 "context": {"win_by": "self_draw", "seat_wind": "west", "round_wind": "east"}},
                {"hand": {"tiles": "234m567m345p678s22s", "winning_tile": "2s"},
                 "context": {"win_by": "self_draw", "seat_wind": "north", "round_wind": "east"}}]}),
            pointer: "/winners/1/context/win_by",
            params: json!({}),
        },
        co_case(
            "co_winner_win_by",
            json!({"win_by": "robbing_kong"}),
            json!({}),
            "/winners/1/context/win_by",
            json!({"win_by": "robbing_kong", "first": "discard"}),
        ),
        co_case(
            "co_winner_discarder",
            json!({"discarder": "south"}),
            json!({}),
            "/winners/1/context/discarder",
            json!({}),
        ),
        co_case(
            "co_winner_round_wind",
            json!({"round_wind": "south"}),
            json!({}),
            "/winners/1/context/round_wind",
            json!({"round_wind": "south", "first": "east"}),
        ),
        co_case(
            "co_winner_seat",
            json!({"seat_wind": "west"}),
            json!({}),
            "/winners/1/context/seat_wind",
            json!({"seat": "west"}),
        ),
        co_case(
            "co_winner_winning_tile",
            json!({}),
            json!({"tiles": "234m567m345p678s99s", "winning_tile": "9s"}),
            "/winners/1/hand/winning_tile",
            json!({"tile": "9s", "first": "2s"}),
        ),
        // The table's rules: every settle and ledger problem coded,
        // the players by name.
        Case {
            code: "winner_count",
            path: "/v1/settle",
            body: json!({"ruleset": "wisteria-court", "winners": []}),
            pointer: "/winners",
            params: json!({"max": 3, "got": 0}),
        },
        // 2,001 draws: one past the default --ledger-hands.
        ledger_case(
            "ledger_too_many_hands",
            Value::Array(vec![json!({"result": "draw"}); 2001]),
            json!({}),
            "/hands",
            json!({"max": 2000, "got": 2001}),
        ),
        // The deal passes on every draw: sixteen hands end the north round.
        ledger_case(
            "match_complete",
            Value::Array(vec![json!({"result": "draw"}); 17]),
            json!({"house_rules": {"dealer_keeps_on_draw": false}}),
            "/hands/16",
            json!({"last": 15}),
        ),
        // One draw: the east round has hardly begun (Ben deals next).
        ledger_case(
            "game_not_complete",
            json!([{"result": "draw"}, {"result": "new_game"}]),
            json!({}),
            "/hands/1",
            json!({"game": 1, "round": "east", "dealer": "Ben"}),
        ),
        // Sixteen passed deals end the game; Eve is not at the table.
        ledger_case(
            "new_game_players",
            {
                let mut hands = vec![json!({"result": "draw"}); 16];
                hands.push(json!({"result": "new_game", "players": ["Ben", "Ann", "Dan", "Eve"]}));
                Value::Array(hands)
            },
            json!({}),
            "/hands/16/players",
            json!({"players": "Ann, Ben, Cat, Dan"}),
        ),
        ledger_case(
            "seats_not_new_game",
            json!([{"result": "draw", "players": ["Ann", "Ben", "Cat", "Dan"]}]),
            json!({}),
            "/hands/0/players",
            json!({"result": "draw"}),
        ),
        // Ann (the dealer: the false win keeps the deal) pays 3 x 3 x 64 x 2^40
        // x 64 (the dealer multiplier) = 9 x 2^52 a hand: the 228th passes 2^63.
        {
            // Set, not merged: the document's own null (no curve) is sent.
            let mut c = ledger_case(
                "balance_overflow",
                Value::Array(vec![json!({"result": "false_win", "offender": "Ann"}); 300]),
                json!({}),
                "/hands/227",
                json!({}),
            );
            c.body["ruleset"] = json!({"extends": "hkma", "id": "huge", "payment": {"self_draw": 64},
                "table": {"dealer_multiplier": 64},
                "points": {"curve": null, "table": vec![1u64 << 40; 11]}});
            c
        },
        ledger_case(
            "player_count",
            json!([]),
            json!({"players": ["Ann", "Ben", "Cat"]}),
            "/players",
            json!({"got": 3}),
        ),
        ledger_case(
            "player_name_empty",
            json!([]),
            json!({"players": ["Ann", " ", "Cat", "Dan"]}),
            "/players/1",
            json!({"index": 1}),
        ),
        ledger_case(
            "player_name_long",
            json!([]),
            json!({"players": ["Ann", "Ben", "C".repeat(33), "Dan"]}),
            "/players/2",
            json!({"index": 2, "max": 32, "chars": 33}),
        ),
        ledger_case(
            "player_repeated",
            json!([]),
            json!({"players": ["Ann", "Ben", "Cat", "Ann"]}),
            "/players/3",
            json!({"name": "Ann"}),
        ),
        ledger_case(
            "unknown_player",
            json!([{"result": "false_win", "offender": "Eve"}]),
            json!({}),
            "/hands/0/offender",
            json!({"name": "Eve"}),
        ),
        ledger_case(
            "unknown_player_long",
            json!([]),
            json!({"start": {"dealer": "E".repeat(40)}}),
            "/start/dealer",
            json!({"chars": 40, "max": 32}),
        ),
        ledger_case(
            "winner_repeated",
            json!([{"result": "win", "winners": [
                {"player": "Ben", "hand": {"tiles": "234m567m345p678s22s", "winning_tile": "2s"},
                 "context": {"win_by": "discard", "discarder": "Ann"}},
                {"player": "Ben", "hand": {"tiles": "234m567m345p678s22s", "winning_tile": "2s"},
                 "context": {"win_by": "discard", "discarder": "Ann"}}]}]),
            json!({}),
            "/hands/0/winners/1/player",
            json!({"player": "Ben"}),
        ),
        ledger_case(
            "seat_wind_mismatch",
            json!([ben_wins(
                json!({"win_by": "self_draw", "seat_wind": "west"})
            )]),
            json!({}),
            "/hands/0/winners/0/context/seat_wind",
            json!({"player": "Ben", "seat": "south", "seat_wind": "west"}),
        ),
        ledger_case(
            "round_wind_mismatch",
            json!([ben_wins(
                json!({"win_by": "self_draw", "round_wind": "south"})
            )]),
            json!({}),
            "/hands/0/winners/0/context/round_wind",
            json!({"round": "east", "round_wind": "south", "player": "Ben"}),
        ),
        ledger_case(
            "ledger_discarder_is_winner",
            json!([ben_wins(json!({"win_by": "discard", "discarder": "Ben"}))]),
            json!({}),
            "/hands/0/winners/0/context/discarder",
            json!({"player": "Ben"}),
        ),
        // hkma's minimum is 3: all chows and a concealed hand won on a discard are 2.
        ledger_case(
            "below_minimum",
            json!([ben_wins(json!({"win_by": "discard", "discarder": "Cat"}))]),
            json!({"ruleset": "hkma"}),
            "/hands/0/winners/0/hand",
            json!({"player": "Ben", "faan": 2, "min": 3}),
        ),
        ledger_case(
            "winners_not_win",
            json!([{"result": "draw", "winners": [{"player": "Ben",
                "hand": {"tiles": "234m567m345p678s22s", "winning_tile": "5p"},
                "context": {"win_by": "self_draw"}}]}]),
            json!({}),
            "/hands/0/winners",
            json!({"result": "draw"}),
        ),
        ledger_case(
            "offender_not_false_win",
            json!([{"result": "draw", "offender": "Ben"}]),
            json!({}),
            "/hands/0/offender",
            json!({"result": "draw"}),
        ),
        ledger_case(
            "offender_required",
            json!([{"result": "false_win"}]),
            json!({}),
            "/hands/0/offender",
            json!({}),
        ),
        // A win declared without tiles (wisteria-court).
        ledger_case(
            "hand_or_declared",
            json!([{"result": "win", "winners": [{"player": "Ben", "context": {"win_by": "self_draw"}}]}]),
            json!({}),
            "/hands/0/winners/0",
            json!({}),
        ),
        ledger_case(
            "declared_one_of",
            json!([{"result": "win", "winners": [{"player": "Ben", "declared": {"faan": 3, "limit": true},
                "context": {"win_by": "self_draw"}}]}]),
            json!({}),
            "/hands/0/winners/0/declared",
            json!({}),
        ),
        ledger_case(
            "pattern_not_scored",
            json!([{"result": "win", "winners": [{"player": "Ben", "declared": {"patterns": ["all_pungs", "human_touch"]},
                "context": {"win_by": "self_draw"}}]}]),
            json!({}),
            "/hands/0/winners/0/declared/patterns/1",
            json!({"pattern": "human_touch", "ruleset": "wisteria-court"}),
        ),
        ledger_case(
            "pattern_repeated",
            json!([{"result": "win", "winners": [{"player": "Ben", "declared": {"patterns": ["seat_flower", "seat_flower", "seat_flower"]},
                "context": {"win_by": "self_draw"}}]}]),
            json!({}),
            "/hands/0/winners/0/declared/patterns/2",
            json!({"pattern": "seat_flower", "max": 2}),
        ),
        // Self-draw ticked on a discard win: a pattern only a self-drawn
        // hand holds (`GET /v1/patterns` only_on).
        ledger_case(
            "pattern_not_on_win",
            json!([{"result": "win", "winners": [{"player": "Ben", "declared": {"patterns": ["all_pungs", "self_draw"]},
                "context": {"win_by": "discard", "discarder": "Ann"}}]}]),
            json!({}),
            "/hands/0/winners/0/declared/patterns/1",
            json!({"pattern": "self_draw", "only_on": "self_draw", "win_by": "discard"}),
        ),
        ledger_case(
            "declared_context_field",
            json!([{"result": "win", "winners": [{"player": "Ben", "declared": {"faan": 3},
                "context": {"win_by": "self_draw", "replacement": "kong"}}]}]),
            json!({}),
            "/hands/0/winners/0/context/replacement",
            json!({"field": "replacement"}),
        ),
        ledger_case(
            "house_rules_not_rules",
            json!([{"result": "draw", "house_rules": {"stake": 1}}]),
            json!({}),
            "/hands/0/house_rules",
            json!({"result": "draw"}),
        ),
        // Waits want 13 tiles: 14 are a whole hand, 11 are 3 short of a win
        // (13 + 1 - 11), 15 are too many.
        // Analysis wants 13 or 14 tiles (a meld counting as three): 12 are
        // neither; a 2s in hand, a 2s... five times in sight; a hand of
        // thirteen lone tiles is 8 from ready, past the chances' bound of 3.
        Case {
            code: "analysis_tile_count",
            path: "/v1/analyze",
            body: waits("234m567m345p678s", json!({})),
            pointer: "/hand/tiles",
            params: json!({"drawing": 13, "discarding": 14, "melds": 0, "got": 12}),
        },
        Case {
            code: "seen_over_four",
            path: "/v1/analyze",
            body: waits("234m567m345p678s2s", json!({"seen": "2s2s2s2s"})),
            pointer: "/seen",
            params: json!({"tile": "2s", "count": 5, "held": 1, "seen": 4}),
        },
        Case {
            code: "chances_too_far",
            path: "/v1/analyze",
            body: waits("147m258p369s1357z", json!({"chances": {"draws": 5}})),
            pointer: "/chances",
            params: json!({"shanten": 7, "max": 3}),
        },
        Case {
            code: "waiting_complete",
            path: "/v1/waits",
            body: waits("234m567m345p678s22s", json!({})),
            pointer: "/hand/tiles",
            params: json!({"expected": 13, "melds": 0, "got": 14}),
        },
        Case {
            code: "waiting_short",
            path: "/v1/waits",
            body: waits("234m567m345p22s", json!({})),
            pointer: "/hand/tiles",
            params: json!({"expected": 13, "melds": 0, "got": 11, "short": 3}),
        },
        Case {
            code: "waiting_over",
            path: "/v1/waits",
            body: waits("234m567m345p678s22s9s", json!({})),
            pointer: "/hand/tiles",
            params: json!({"expected": 13, "melds": 0, "got": 15}),
        },
        case(
            "tile_count",
            with(json!({"hand": {"tiles": "234m567m345p678s2s"}})),
            "/hand/tiles",
            json!({"expected": 14, "melds": 0, "got": 13}),
        ),
        case(
            "discarder_on_self_draw",
            with(json!({"context": {"discarder": "west"}})),
            "/context/discarder",
            json!({}),
        ),
        case(
            "discarder_required",
            with(json!({"context": {"win_by": "discard"}})),
            "/context/discarder",
            json!({}),
        ),
        case(
            "discarder_required_robbing",
            with(json!({"context": {"win_by": "robbing_kong"}})),
            "/context/discarder",
            json!({}),
        ),
        case(
            "discarder_is_winner",
            with(json!({"context": {"win_by": "discard", "discarder": "south"}})),
            "/context/discarder",
            json!({"seat": "south"}),
        ),
        case(
            "liable_is_winner",
            with(json!({"context": {"liable": "south"}})),
            "/context/liable",
            json!({"seat": "south"}),
        ),
        case(
            "replacement_not_self_draw",
            with(
                json!({"context": {"win_by": "discard", "discarder": "west", "replacement": "flower"}}),
            ),
            "/context/replacement",
            json!({}),
        ),
        case(
            "kong_replacement_without_kong",
            with(json!({"context": {"replacement": "kong"}})),
            "/context/replacement",
            json!({}),
        ),
        case(
            "robbed_kong_without_robbing",
            with(json!({"context": {"robbed_kong": "concealed"}})),
            "/context/robbed_kong",
            json!({}),
        ),
        // 5p is neither a terminal nor an honour.
        case(
            "concealed_kong_robbed_not_orphan",
            with(
                json!({"context": {"win_by": "robbing_kong", "discarder": "west", "robbed_kong": "concealed"}}),
            ),
            "/context/robbed_kong",
            json!({}),
        ),
        case(
            "last_of_its_kind_flower_win",
            with(
                json!({"ruleset": "hkma", "house_rules": {"flowers": true}, "hand": {"winning_tile": null, "flowers": ["F1", "F2", "F3", "F4", "S1", "S2", "S3"]}, "context": {"flower_win": true, "last_of_its_kind": true}}),
            ),
            "/context/last_of_its_kind",
            json!({}),
        ),
        case(
            "second_replacement_not_flower",
            with(json!({"context": {"first_replacement": "flower"}})),
            "/context/first_replacement",
            json!({}),
        ),
        case(
            "two_flower_replacements",
            with(
                json!({"hand": {"flowers": ["F1"]}, "context": {"replacement": "flower", "first_replacement": "flower"}}),
            ),
            "/context/first_replacement",
            json!({"found": 1}),
        ),
        case(
            "double_kong_replacement",
            with(json!({"context": {"double_kong": true}})),
            "/context/double_kong",
            json!({}),
        ),
        case(
            "double_kong_two_kongs",
            with(json!({"context": {"double_kong": true, "replacement": "kong"}})),
            "/context/double_kong",
            json!({"found": 0}),
        ),
        case(
            "heavenly_not_east",
            with(json!({"context": {"heavenly": true}})),
            "/context/heavenly",
            json!({"seat": "south"}),
        ),
        case(
            "heavenly_not_self_draw",
            with(
                json!({"context": {"seat_wind": "east", "win_by": "discard", "discarder": "west", "heavenly": true}}),
            ),
            "/context/heavenly",
            json!({}),
        ),
        case(
            "heavenly_melds",
            with(
                json!({"hand": {"tiles": "234m567m345p22s", "melds": [kong("7777s")]}, "context": {"seat_wind": "east", "heavenly": true}}),
            ),
            "/context/heavenly",
            json!({}),
        ),
        case(
            "earthly_east",
            with(
                json!({"context": {"seat_wind": "east", "win_by": "discard", "discarder": "south", "earthly": true}}),
            ),
            "/context/earthly",
            json!({}),
        ),
        case(
            "earthly_not_discard",
            with(json!({"context": {"earthly": true}})),
            "/context/earthly",
            json!({}),
        ),
        case(
            "earthly_discarder",
            with(json!({"context": {"win_by": "discard", "discarder": "west", "earthly": true}})),
            "/context/earthly",
            json!({}),
        ),
        case(
            "earthly_melds",
            with(
                json!({"hand": {"tiles": "234m567m345p22s", "melds": [kong("7777s")]}, "context": {"win_by": "discard", "discarder": "east", "earthly": true}}),
            ),
            "/context/earthly",
            json!({}),
        ),
        case(
            "heavenly_and_earthly",
            with(json!({"context": {"heavenly": true, "earthly": true}})),
            "/context/earthly",
            json!({}),
        ),
        // Robbing a kong of 2s: the other three 2s are in the kong, yet the
        // hand holds two.
        case(
            "robbing_count",
            with(
                json!({"hand": {"winning_tile": "2s"}, "context": {"win_by": "robbing_kong", "discarder": "west"}}),
            ),
            "/context/win_by",
            json!({"tile": "2s", "count": 2}),
        ),
        case(
            "flower_win_ruleset",
            with(
                json!({"hand": {"winning_tile": null, "flowers": ["F1", "F2", "F3", "F4", "S1", "S2", "S3"]}, "context": {"flower_win": true}}),
            ),
            "/context/flower_win",
            json!({"ruleset": "wisteria-court"}),
        ),
        case(
            "flower_win_count",
            with(
                json!({"ruleset": "hkma", "house_rules": {"flowers": true}, "hand": {"winning_tile": null, "flowers": ["F1"]}, "context": {"flower_win": true}}),
            ),
            "/context/flower_win",
            json!({"count": 1}),
        ),
        case(
            "flower_win_self_draw",
            with(
                json!({"ruleset": "hkma", "house_rules": {"flowers": true}, "hand": {"winning_tile": null, "flowers": ["F1", "F2", "F3", "F4", "S1", "S2", "S3"]}, "context": {"win_by": "discard", "discarder": "west", "flower_win": true}}),
            ),
            "/context/flower_win",
            json!({}),
        ),
        // hkma without seven_flowers: seven bonus tiles are no flower win
        // (the null set after the merge patch, which would drop it).
        case(
            "flower_win_not_scored",
            {
                let mut v = with(
                    json!({"ruleset": "hkma", "hand": {"winning_tile": null, "flowers": ["F1", "F2", "F3", "F4", "S1", "S2", "S3"]}, "context": {"flower_win": true}}),
                );
                v["house_rules"] = json!({"flowers": true, "patterns": {"seven_flowers": null}});
                v
            },
            "/context/flower_win",
            json!({"ruleset": "hkma", "count": 7, "pattern": "seven_flowers"}),
        ),
        case(
            "first_go_around_east",
            with(
                json!({"context": {"seat_wind": "east", "win_by": "discard", "discarder": "west", "first_go_around": true}}),
            ),
            "/context/first_go_around",
            json!({}),
        ),
        case(
            "first_go_around_not_discard",
            with(json!({"context": {"first_go_around": true}})),
            "/context/first_go_around",
            json!({}),
        ),
        case(
            "first_go_around_melds",
            with(
                json!({"hand": {"tiles": "234m567m345p22s", "melds": [{"kind": "chow", "tiles": "678s"}]}, "context": {"win_by": "discard", "discarder": "west", "first_go_around": true}}),
            ),
            "/context/first_go_around",
            json!({}),
        ),
        // Four chows and no pair: 14 tiles that are no hand.
        case(
            "not_winning",
            with(json!({"hand": {"tiles": "234m567m345p678s29s", "winning_tile": "5p"}})),
            "/hand/tiles",
            json!({"tiles": 14}),
        ),
        case(
            "unknown_ruleset",
            with(json!({"ruleset": "nope"})),
            "/ruleset",
            json!({"id": "nope"}),
        ),
        // All chows a 40-faan line at a limit of 40: B = 2^40; each loser
        // pays 2B = 2^41 points, at 10^8 cents a point past 2^53 - 1 cents.
        case(
            "money_unrepresentable",
            with(
                json!({"ruleset": "hkma", "house_rules": {"limit": 40, "points": "full_spicy", "stake": 1000000, "patterns": {"all_chows": 40}}}),
            ),
            "/house_rules/stake",
            json!({"max_cents": 9_007_199_254_740_991u64}),
        ),
        // All chows, self draw, concealed hand: 3 x (2^31 - 1) faan, past u32.
        case(
            "faan_overflow",
            with(
                json!({"ruleset": "hkma", "house_rules": {"limits_add": true, "patterns": {"all_chows": 2147483647, "self_draw": 2147483647, "concealed_hand": 2147483647}}}),
            ),
            "/house_rules/patterns/all_chows",
            json!({"pattern": "all_chows"}),
        ),
        // 40 + 40 + 1 = 81 faan at a limit of 40: 2 x 2^40 + 2, past 2^40.
        case(
            "base_points_overflow",
            with(
                json!({"ruleset": "hkma", "house_rules": {"limit": 40, "points": "full_spicy", "limits_add": true, "patterns": {"all_chows": 40, "concealed_hand": 40}}}),
            ),
            "/house_rules/patterns/all_chows",
            json!({"pattern": "all_chows"}),
        ),
    ]
}

#[tokio::test]
async fn every_rule_of_a_hand_has_its_code_and_params() {
    let app = spawn_app().await;
    let spec: Value = app.get("/openapi.json").await.json();
    let mut contract: Vec<String> = spec["components"]["schemas"]["ProblemError"]["properties"]
        ["code"]["enum"]
        .as_array()
        .expect("ProblemError.code lists its codes")
        .iter()
        .filter_map(|c| c.as_str().map(String::from))
        .collect();
    contract.sort();
    // The hand-changes graph's bound (`core::hand_changes::MAX_STATES`): no
    // hand within three of ready has been found to reach it (123m458p367s12z39s
    // with both changes on stays under), so no request here can show it.
    contract.retain(|c| c != "chances_too_large");
    let mut failures = Vec::new();
    let mut covered = Vec::new();
    for c in cases() {
        covered.push(c.code.to_string());
        let r = app.post(c.path, &c.body).await;
        let errors = r.json()["errors"].clone();
        let found = errors
            .as_array()
            .into_iter()
            .flatten()
            .find(|e| e["code"] == c.code);
        let Some(e) = found else {
            failures.push(format!(
                "[{}] no error with this code: {} {}",
                c.code,
                r.status,
                r.text()
            ));
            continue;
        };
        let message = e["message"].as_str().unwrap_or_default();
        if e["pointer"] != c.pointer {
            failures.push(format!(
                "[{}] pointer {} (want {})",
                c.code, e["pointer"], c.pointer
            ));
        }
        // tile_notation's detail is the notation's own message: checked for
        // its position only.
        let params = if c.code == "tile_notation" {
            json!({"position": e["params"]["position"]})
        } else {
            e["params"].clone()
        };
        let want = if c.code == "tile_notation" {
            json!({"position": 4})
        } else {
            c.params.clone()
        };
        if params != want {
            failures.push(format!("[{}] params {params} (want {want})", c.code));
        }
        if message.contains('{') || message.is_empty() {
            failures.push(format!("[{}] message not filled: {message:?}", c.code));
        }
    }
    covered.sort();
    covered.dedup();
    assert_eq!(
        covered, contract,
        "a case for every code of the contract, and no other"
    );
    assert!(
        failures.is_empty(),
        "{} of {} cases wrong:\n{}",
        failures.len(),
        covered.len(),
        failures.join("\n")
    );
}
