//! Ruleset documents sent inline, and the validate endpoint: each wrong
//! key or value named by its pointer.

use super::*;

pub(super) fn cases() -> Vec<Case> {
    let score = "/v1/score";
    vec![
        case(
            "ruleset document: an unknown key",
            score,
            with(
                &["ruleset"],
                json!({"extends": "wisteria-court", "colour": "red"}),
            ),
            422,
            INVALID,
            Some("/ruleset/colour"),
        ),
        case(
            "ruleset document: a negative faan",
            score,
            with(
                &["ruleset"],
                json!({"extends": "wisteria-court", "patterns": {"all_simples": {"faan": -1}}}),
            ),
            422,
            INVALID,
            Some("/ruleset/patterns/all_simples/faan"),
        ),
        case(
            "ruleset document: a fractional faan",
            score,
            with(
                &["ruleset"],
                json!({"extends": "wisteria-court", "patterns": {"all_chows": {"faan": 1.5}}}),
            ),
            422,
            INVALID,
            Some("/ruleset/patterns/all_chows/faan"),
        ),
        case(
            "ruleset document: an unknown extends",
            score,
            with(&["ruleset"], json!({"extends": "riichi"})),
            422,
            INVALID,
            Some("/ruleset/extends"),
        ),
        case(
            "ruleset document: extends not a string",
            score,
            with(&["ruleset"], json!({"extends": ["hkma"]})),
            422,
            INVALID,
            Some("/ruleset/extends"),
        ),
        case(
            "ruleset document: a contains loop",
            score,
            with(
                &["ruleset"],
                json!({"extends": "wisteria-court", "patterns": {"all_chows": {"contains": ["self_draw"]}, "self_draw": {"contains": ["all_chows"]}}}),
            ),
            422,
            INVALID,
            Some("/ruleset/patterns/all_chows/contains"),
        ),
        case(
            "ruleset document: a pattern id that does not exist",
            score,
            with(
                &["ruleset"],
                json!({"extends": "wisteria-court", "patterns": {"ping_wu": {"faan": 1}}}),
            ),
            422,
            INVALID,
            Some("/ruleset/patterns/ping_wu"),
        ),
        case(
            "ruleset document: contains an unknown id",
            score,
            with(
                &["ruleset"],
                json!({"extends": "wisteria-court", "patterns": {"all_chows": {"contains": ["self_draw", "ping_wu"]}}}),
            ),
            422,
            INVALID,
            Some("/ruleset/patterns/all_chows/contains/1"),
        ),
        case(
            "ruleset document: points table too short",
            score,
            with(
                &["ruleset"],
                json!({"extends": "wisteria-court", "points": {"curve": null, "table": [1, 2, 4]}}),
            ),
            422,
            INVALID,
            Some("/ruleset/points/table"),
        ),
        case(
            "ruleset document: limit of the wrong type",
            score,
            with(
                &["ruleset"],
                json!({"extends": "wisteria-court", "limit": "ten"}),
            ),
            422,
            INVALID,
            Some("/ruleset/limit"),
        ),
        case(
            "ruleset document: limit above 64",
            score,
            with(
                &["ruleset"],
                json!({"extends": "wisteria-court", "limit": 65}),
            ),
            422,
            INVALID,
            Some("/ruleset/limit"),
        ),
        case(
            "ruleset document: an invalid id",
            score,
            with(
                &["ruleset"],
                json!({"extends": "wisteria-court", "id": "My Table"}),
            ),
            422,
            INVALID,
            Some("/ruleset/id"),
        ),
        case(
            "ruleset document: exclusive of one id",
            score,
            with(
                &["ruleset"],
                json!({"extends": "wisteria-court", "exclusive": [["all_chows"]]}),
            ),
            422,
            INVALID,
            Some("/ruleset/exclusive/0"),
        ),
        case(
            "ruleset document: exclusive of an unknown id",
            score,
            with(
                &["ruleset"],
                json!({"extends": "wisteria-court", "exclusive": [["all_chows", "ping_wu"]]}),
            ),
            422,
            INVALID,
            Some("/ruleset/exclusive/0/1"),
        ),
        case(
            "ruleset document: a condition of another pattern",
            score,
            with(
                &["ruleset"],
                json!({"extends": "wisteria-court", "patterns": {"all_chows": {"pure_only": true}}}),
            ),
            422,
            INVALID,
            Some("/ruleset/patterns/all_chows/pure_only"),
        ),
        case(
            "ruleset document: a condition not a boolean",
            score,
            with(
                &["ruleset"],
                json!({"extends": "wisteria-court", "patterns": {"concealed_hand": {"allow_concealed_kong": "no"}}}),
            ),
            422,
            INVALID,
            Some("/ruleset/patterns/concealed_hand/allow_concealed_kong"),
        ),
        case(
            "ruleset document without extends: limit missing",
            score,
            with(&["ruleset"], json!({"min_faan": 0, "bonus_tiles": true})),
            422,
            INVALID,
            Some("/ruleset/limit"),
        ),
        case(
            "ruleset document: payment not in eighths",
            score,
            with(
                &["ruleset"],
                json!({"extends": "wisteria-court", "payment": {"self_draw": 1.1}}),
            ),
            422,
            INVALID,
            Some("/ruleset/payment/self_draw"),
        ),
        case(
            "ruleset document: over --ruleset-bytes",
            score,
            with(
                &["ruleset"],
                json!({"extends": "wisteria-court", "notes": ["x".repeat(33 * 1024)]}),
            ),
            422,
            INVALID,
            Some("/ruleset"),
        ),
        case(
            "ruleset is a list",
            score,
            with(&["ruleset"], json!(["hkma"])),
            422,
            INVALID,
            Some("/ruleset"),
        ),
        case(
            "validate: a broken document",
            "/v1/rulesets/validate",
            bytes(json!({"ruleset": {"extends": "hkma", "min_faan": 11}})),
            422,
            INVALID,
            Some("/ruleset/min_faan"),
        ),
        case(
            "validate: house rules against a document",
            "/v1/rulesets/validate",
            bytes(
                json!({"ruleset": {"extends": "hkma", "id": "mine"}, "house_rules": {"contains": {"seven_pairs": []}}}),
            ),
            422,
            INVALID,
            Some("/house_rules/contains/seven_pairs"),
        ),
        // The body is read without a depth check; the document is checked
        // where it is resolved (bench/inline.md): a 422 at the document.
        case(
            "ruleset document nested 40 deep (score)",
            score,
            with(
                &["ruleset"],
                json!({"extends": "hkma", "notes": serde_json::from_slice::<serde_json::Value>(&nested("[", "]", 40)).unwrap()}),
            ),
            422,
            INVALID,
            Some("/ruleset"),
        ),
        case(
            "ruleset document nested 40 deep (settle)",
            "/v1/settle",
            bytes(json!({
                "ruleset": {"extends": "hkma", "notes": serde_json::from_slice::<serde_json::Value>(&nested("[", "]", 40)).unwrap()},
                "winners": []
            })),
            422,
            INVALID,
            Some("/ruleset"),
        ),
        case(
            "validate: an unknown limits_pay in a document",
            "/v1/rulesets/validate",
            bytes(
                json!({"ruleset": {"extends": "hkma", "limits_add": true, "limits_pay": "twice"}}),
            ),
            422,
            INVALID,
            Some("/ruleset/limits_pay"),
        ),
        case(
            "settle under a broken document",
            "/v1/settle",
            bytes(
                json!({"ruleset": {"extends": "hkma", "table": {"multiple_winners": "most"}}, "winners": []}),
            ),
            422,
            INVALID,
            Some("/ruleset/table/multiple_winners"),
        ),
    ]
}
