//! Declared wins and changes of rules that break a rule, each answered at
//! its pointer.

use super::*;

#[test]
fn bad_declared_wins_and_changes_each_at_its_pointer() {
    let s = service();
    let one = |w: Value| settle("hkma", json!({}), json!([w]));
    let ctx = on_discard("south", "west");
    let cases: Vec<(&str, Value, &str, &str)> = vec![
        (
            "both hand and declared",
            one(json!({"hand": all_pungs(), "declared": {"faan": 5}, "context": ctx})),
            "/winners/0",
            "hand_or_declared",
        ),
        (
            "neither",
            one(json!({"context": ctx})),
            "/winners/0",
            "hand_or_declared",
        ),
        (
            "faan and limit",
            one(declared(json!({"faan": 5, "limit": true}), ctx.clone())),
            "/winners/0/declared",
            "declared_one_of",
        ),
        (
            "limit false",
            one(declared(json!({"limit": false}), ctx.clone())),
            "/winners/0/declared",
            "declared_one_of",
        ),
        (
            "faan 256",
            one(declared(json!({"faan": 256}), ctx.clone())),
            "/winners/0/declared/faan",
            "",
        ),
        (
            "an unknown pattern",
            one(declared(
                json!({"patterns": ["all_pungs", "seven_dwarfs"]}),
                ctx.clone(),
            )),
            "/winners/0/declared/patterns/1",
            "pattern_not_scored",
        ),
        (
            "a pattern hkma does not score",
            one(declared(
                json!({"patterns": ["thirteen_sided_orphans"]}),
                ctx.clone(),
            )),
            "/winners/0/declared/patterns/0",
            "pattern_not_scored",
        ),
        (
            "a repeat that cannot repeat",
            one(declared(
                json!({"patterns": ["mixed_one_suit", "all_pungs", "mixed_one_suit"]}),
                ctx.clone(),
            )),
            "/winners/0/declared/patterns/2",
            "pattern_repeated",
        ),
        (
            "a fourth dragon pung",
            one(declared(
                json!({"patterns": ["dragon_pung", "dragon_pung", "dragon_pung", "dragon_pung"]}),
                ctx.clone(),
            )),
            "/winners/0/declared/patterns/3",
            "pattern_repeated",
        ),
        (
            "self-draw ticked on a discard win",
            one(declared(
                json!({"patterns": ["all_pungs", "self_draw"]}),
                ctx.clone(),
            )),
            "/winners/0/declared/patterns/1",
            "pattern_not_on_win",
        ),
        (
            "an extra context field",
            one(declared(
                json!({"faan": 5}),
                json!({"win_by": "discard", "seat_wind": "south", "round_wind": "east", "discarder": "west", "last_tile": true}),
            )),
            "/winners/0/context/last_tile",
            "declared_context_field",
        ),
        (
            "the winner discards",
            one(declared(json!({"faan": 5}), on_discard("south", "south"))),
            "/winners/0/context/discarder",
            "discarder_is_winner",
        ),
    ];
    for (case, body, pointer, code) in cases {
        assert_eq!(
            refused(&s, "/v1/settle", &body, case),
            (pointer.to_string(), code.to_string()),
            "{case}"
        );
    }
    let draw = json!({"result": "draw"});
    let ledger_cases: Vec<(&str, Value, &str, &str)> = vec![
        (
            "a broken house rule",
            json!({"result": "rules", "house_rules": {"dealer_multiplier": 0.3}}),
            "/hands/1/house_rules/dealer_multiplier",
            "",
        ),
        (
            "a house rule of the wrong type",
            json!({"result": "rules", "house_rules": {"stake": "a lot"}}),
            "/hands/1/house_rules/stake",
            "",
        ),
        (
            "an unknown house rule",
            json!({"result": "rules", "house_rules": {"stak": null}}),
            "/hands/1/house_rules/stak",
            "",
        ),
        (
            "a broken false win",
            json!({"result": "rules", "house_rules": {"false_win": {"points": 0}}}),
            "/hands/1/house_rules/false_win",
            "",
        ),
        (
            "house rules on a draw",
            json!({"result": "draw", "house_rules": {"stake": 1}}),
            "/hands/1/house_rules",
            "house_rules_not_rules",
        ),
        (
            "winners on a change",
            json!({"result": "rules", "house_rules": {}, "winners": [{"player": "阿美", "declared": {"faan": 3}, "context": {"win_by": "self_draw"}}]}),
            "/hands/1/winners",
            "winners_not_win",
        ),
        (
            "a declared winner with tiles too",
            json!({"result": "win", "winners": [{"player": "阿美", "hand": all_pungs(), "declared": {"faan": 3}, "context": {"win_by": "self_draw"}}]}),
            "/hands/1/winners/0",
            "hand_or_declared",
        ),
    ];
    for (case, hand, pointer, code) in ledger_cases {
        let body = night("hkma", json!({}), vec![draw.clone(), hand]);
        assert_eq!(
            refused(&s, "/v1/ledger", &body, case),
            (pointer.to_string(), code.to_string()),
            "{case}"
        );
    }
}
