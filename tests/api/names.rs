//! Names in two languages and tiles written as Unicode (`docs/api.md`,
//! "Names in two languages, and more ways to write tiles").

use crate::helpers::spawn_app;
use faan::core::PatternId;
use serde_json::{json, Value};
use std::collections::BTreeMap;

/// `tests/names_zh.json`: pattern id → Traditional Chinese name, written from the guides.
fn names_zh() -> BTreeMap<String, String> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/names_zh.json");
    let v: Value = serde_json::from_str(&std::fs::read_to_string(path).expect(path)).expect(path);
    v["names"]
        .as_object()
        .expect("names")
        .iter()
        .map(|(id, n)| (id.clone(), n["name_zh"].as_str().expect(id).to_string()))
        .collect()
}

/// Every line of `lines` names its pattern as the table does, in both languages.
fn check_lines(
    what: &str,
    lines: &Value,
    zh: &BTreeMap<String, String>,
    en: &BTreeMap<String, String>,
) {
    let lines = lines
        .as_array()
        .unwrap_or_else(|| panic!("{what}: lines {lines}"));
    for l in lines {
        let id = l["pattern"].as_str().unwrap();
        assert_eq!(
            l["name_zh"].as_str(),
            zh.get(id).map(String::as_str),
            "{what}: {id} name_zh"
        );
        assert_eq!(
            l["name"].as_str(),
            en.get(id).map(String::as_str),
            "{what}: {id} name"
        );
    }
}

#[tokio::test]
async fn every_pattern_of_every_ruleset_has_the_guides_chinese_name() {
    let app = spawn_app().await;
    let zh = names_zh();
    // The table names every pattern id, and nothing else.
    for id in PatternId::ALL {
        assert!(
            zh.contains_key(id.as_str()),
            "tests/names_zh.json lacks {id}"
        );
    }
    for id in zh.keys() {
        assert!(
            id.parse::<PatternId>().is_ok(),
            "tests/names_zh.json: {id} is no pattern id"
        );
    }
    let list = app.get("/v1/rulesets").await.json();
    let ids: Vec<&str> = list["rulesets"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        ids.len(),
        faan::core::Registry::builtin().unwrap().ids().count()
    );
    // One English name per pattern across rulesets.
    let mut english: BTreeMap<String, (String, String)> = BTreeMap::new();
    let mut checked = 0;
    for rid in ids {
        let d = app.get(&format!("/v1/rulesets/{rid}")).await.json();
        for p in d["patterns"].as_array().unwrap() {
            let id = p["id"].as_str().unwrap();
            assert_eq!(
                p["name_zh"].as_str(),
                zh.get(id).map(String::as_str),
                "{rid}: {id} name_zh"
            );
            let name = p["name"].as_str().unwrap().to_string();
            let (first, seen_in) = english
                .entry(id.to_string())
                .or_insert_with(|| (name.clone(), rid.to_string()));
            assert_eq!(&name, first, "{rid}: {id} is named as in {seen_in}");
            assert!(
                !p["guide_name"].as_str().unwrap_or("").is_empty(),
                "{rid}: {id} guide_name"
            );
            checked += 1;
        }
    }
    assert!(checked > 0);
    // The guides' wording is kept: sc-hk13 calls last_tile "Last Draw", or "Last Discard".
    let d = app.get("/v1/rulesets/sc-hk13").await.json();
    let last = d["patterns"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["id"] == "last_tile")
        .expect("sc-hk13 scores last_tile");
    assert_eq!(
        (
            &last["name"],
            &last["guide_name"],
            &last["guide_name_on_discard"]
        ),
        (
            &json!("Last tile"),
            &json!("Last Draw"),
            &json!("Last Discard")
        )
    );
}

#[tokio::test]
async fn every_faan_line_carries_both_names() {
    let app = spawn_app().await;
    let zh = names_zh();
    let en: BTreeMap<String, String> = PatternId::ALL
        .iter()
        .map(|id| (id.as_str().to_string(), id.name().to_string()))
        .collect();
    let quiet = json!({"ruleset": "wisteria-court",
        "hand": {"tiles": "123456m789p23455s", "winning_tile": "9p"},
        "context": {"win_by": "self_draw", "seat_wind": "south", "round_wind": "east"}});
    let v = app.post("/v1/score", &quiet).await.json();
    // The README's quiet hand: 平糊, 自摸, 門前清, 無花.
    let names: Vec<&str> = v["lines"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| l["name_zh"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["平糊", "自摸", "門前清", "無花"], "quiet hand");
    check_lines("score", &v["lines"], &zh, &en);
    for d in v["decompositions"].as_array().unwrap() {
        check_lines("score reading", &d["lines"], &zh, &en);
    }
    let b = app
        .post("/v1/score/batch", &json!({"requests": [quiet]}))
        .await
        .json();
    check_lines("batch", &b["results"][0]["lines"], &zh, &en);
    let mut all = quiet.clone();
    all.as_object_mut().unwrap().remove("ruleset");
    all["rulesets"] = json!("all");
    let c = app.post("/v1/compare", &all).await.json();
    for (rid, res) in c["results"].as_object().unwrap() {
        if res.get("lines").is_some() {
            check_lines(&format!("compare {rid}"), &res["lines"], &zh, &en);
        }
    }
    let w = app
        .post(
            "/v1/waits",
            &json!({"ruleset": "hkma", "hand": {"tiles": "1112345678999m"}, "context": {"seat_wind": "south", "round_wind": "east"}}),
        )
        .await
        .json();
    let waits = w["waits"].as_array().unwrap();
    assert!(!waits.is_empty());
    for wait in waits {
        for how in ["discard", "self_draw"] {
            check_lines(&format!("waits {how}"), &wait[how]["lines"], &zh, &en);
        }
    }
    // 九子連環 on every wait of the nine gates.
    assert_eq!(waits[0]["discard"]["lines"][0]["name_zh"], "九子連環");
}

/// The Wisteria Court "strong hand" shape, in MPSZ, in Unicode and mixed:
/// every answer is the same body, `hand_hash` included.
#[tokio::test]
async fn unicode_tiles_score_exactly_as_mpsz() {
    let app = spawn_app().await;
    let req = |tiles: &str, melds: [&str; 3], win: &str, flower: &str| {
        json!({"ruleset": "wisteria-court",
            "hand": {"tiles": tiles,
                "melds": [{"kind": "pung", "tiles": melds[0]}, {"kind": "pung", "tiles": melds[1]}, {"kind": "pung", "tiles": melds[2]}],
                "winning_tile": win, "flowers": [flower]},
            "context": {"win_by": "discard", "seat_wind": "south", "round_wind": "east", "discarder": "north"}})
    };
    let mpsz = app
        .post(
            "/v1/score",
            &req("555p88s", ["777z", "222z", "333m"], "8s", "F1"),
        )
        .await;
    assert_eq!(mpsz.status, 200, "{}", mpsz.text());
    let want = mpsz.json();
    assert_eq!(want["total_faan"], 5, "the strong hand scores 5");
    let cases = [
        ("unicode", req("🀝🀝🀝🀗🀗", ["🀄🀄🀄", "🀁🀁🀁", "🀉🀉🀉"], "🀗", "🀢")),
        (
            "mixed",
            req("🀝5p🀝 8s🀗", ["7z🀄7z", "🀁22z", "3m🀉3m"], "8s", "🀢"),
        ),
        (
            "unicode winning tile",
            req("555p88s", ["777z", "222z", "333m"], "🀗", "F1"),
        ),
    ];
    for (name, body) in cases {
        let r = app.post("/v1/score", &body).await;
        assert_eq!(r.status, 200, "{name}: {}", r.text());
        assert_eq!(
            r.json(),
            want,
            "{name}: the same answer, hand_hash included"
        );
    }
}

#[tokio::test]
async fn a_character_that_is_not_a_tile_is_named_by_position() {
    let app = spawn_app().await;
    // (field, value, pointer, words of the message)
    let cases = [
        (
            "tiles",
            json!("1234x"),
            "/hand/tiles",
            "character 5 ('x') is not a tile",
        ),
        (
            "tiles",
            json!("🀇🀈🀉🀊🀋🀌🀍🀎🀏🀙🀙🀙🀚x"),
            "/hand/tiles",
            "character 14 ('x') is not a tile",
        ),
        (
            "tiles",
            json!("123456m789p2345🀢"),
            "/hand/tiles",
            "character 16 ('🀢') is a bonus tile",
        ),
        (
            "winning_tile",
            json!("🀫"),
            "/hand/winning_tile",
            "character 1 ('🀫') is not a tile",
        ),
        (
            "flowers",
            json!(["🀄"]),
            "/hand/flowers/0",
            "is not a bonus tile",
        ),
    ];
    for (field, value, pointer, words) in cases {
        let mut body = json!({"ruleset": "wisteria-court",
            "hand": {"tiles": "123456m789p23455s", "winning_tile": "9p"},
            "context": {"win_by": "self_draw", "seat_wind": "south", "round_wind": "east"}});
        body["hand"][field] = value.clone();
        let r = app.post("/v1/score", &body).await;
        assert_eq!(r.status, 422, "{field} {value}: {}", r.text());
        let errors = r.json()["errors"].clone();
        assert!(
            errors
                .as_array()
                .unwrap()
                .iter()
                .any(|e| e["pointer"] == pointer && e["message"].as_str().unwrap().contains(words)),
            "{field} {value}: want {pointer} saying {words:?}, got {errors}"
        );
    }
}

#[tokio::test]
async fn a_thirteen_orphans_reading_lists_its_twelve_singles() {
    let app = spawn_app().await;
    let r = app
        .post(
            "/v1/score",
            &json!({"ruleset": "hkma",
                "hand": {"tiles": "19m19p19s12345677z", "winning_tile": "7z"},
                "context": {"win_by": "self_draw", "seat_wind": "south", "round_wind": "east"}}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.text());
    let v = r.json();
    let d = &v["decompositions"][v["chosen"].as_u64().unwrap() as usize];
    assert_eq!(d["form"], "thirteen_orphans");
    assert_eq!(d["pair"], "77z");
    assert_eq!(
        d["singles"],
        json!(["1m", "9m", "1p", "9p", "1s", "9s", "1z", "2z", "3z", "4z", "5z", "6z"]),
        "every orphan but the pair's, in tile order"
    );
    assert_eq!(v["lines"][0]["name_zh"], "十三么");
}

/// Every built-in has a Chinese name (rulesets/README.md,
/// "Chinese names") in the list and its chart; the names changed no
/// `ruleset_hash` (the hashes below are those of the rulesets' English
/// text, the false win's note the last change to it); a document that
/// renames a built-in does not keep the base's Chinese name.
#[tokio::test]
async fn every_built_in_ruleset_has_a_chinese_name_and_keeps_its_hash() {
    let app = spawn_app().await;
    let want = [
        (
            "dragon-society",
            "龍社",
            "5cda278bf7997b1f7eb07b099fb265e55aec526877a8b57ee991e2cf92fc2d9a",
        ),
        (
            "hefen-new-style",
            "Hé Fēn 香港新派",
            "480dfc59876ab3b710895caa3217c56191fe161a29ca9a5b2cef936eee728e0a",
        ),
        (
            "hkma",
            "香港麻雀協會",
            "0ec566b0cec15cb54ecd2c105b0ebba20b2d64c730f0402918755f927b10f330",
        ),
        (
            "l2",
            "L2 番制（三番起糊、十三番滿糊）",
            "e93035ba694c3edc5a57ec16fe09479afaf903e8c49038eb73076d77b8426b85",
        ),
        (
            "liu",
            "LIU 番制（三番起糊、十三番滿糊、出銃者獨付）",
            "7685377fbebddab9cb6f0439ed96170c6009e14077fe063c8e90498367f47886",
        ),
        (
            "mjb",
            "MJB 番制（三番起糊、十番滿糊、每次找數加二十籌）",
            "1af159c8e240a085bebf65c8a27dc4b17ed7c2006001802ac1514399d441bbee",
        ),
        (
            "mjtime",
            "MJ Time 番制（三番起糊、十番滿糊、不計門前清）",
            "1e953b8591aef4628900ed38738346f1167c2288cb556c2a5f2e6a8de7f74be1",
        ),
        (
            "sc-hk13-half-laak",
            "SC HK13 半辣比較預設",
            "e4b14b63c0738444a1446a31bbe6322e5aac487424873e2f84dd19a2c5378452",
        ),
        (
            "sc-hk13",
            "SC HK13 網頁遊戲",
            "2f48a38efc45bcfb63f0eb33a8325f121656326ea6d7f3bc244766a39d797e7f",
        ),
        (
            "wikipedia",
            "維基百科",
            "3f99ccad6cb0e8809a1a7de7052618038127cbc4f7c04ce51e8a363b4266b661",
        ),
        (
            "wisteria-court",
            "紫藤苑麻雀",
            "fd43f78c793df116d7c6d5d11bbaf2def60a033d8edfad14ad49d91d879da55a",
        ),
    ];
    let list = app.get("/v1/rulesets").await.json();
    let listed: Vec<(String, String)> = list["rulesets"]
        .as_array()
        .expect("rulesets")
        .iter()
        .map(|r| {
            (
                r["id"].as_str().unwrap().into(),
                r["name_zh"].as_str().unwrap_or("(none)").into(),
            )
        })
        .collect();
    let expected: Vec<(String, String)> = want
        .iter()
        .map(|(id, zh, _)| (id.to_string(), zh.to_string()))
        .collect();
    assert_eq!(listed, expected, "GET /v1/rulesets: each ruleset's name_zh");
    for (id, zh, hash) in want {
        let d = app.get(&format!("/v1/rulesets/{id}")).await.json();
        assert_eq!(d["name_zh"], json!(zh), "GET /v1/rulesets/{id}: name_zh");
        assert_eq!(
            d["ruleset_hash"],
            json!(hash),
            "{id}: the hash of the English text alone"
        );
    }
    let same = app
        .post(
            "/v1/rulesets/validate",
            &json!({"ruleset": {"extends": "hkma", "id": "mine"}}),
        )
        .await
        .json();
    assert_eq!(
        same["name_zh"],
        json!("香港麻雀協會"),
        "extends alone keeps the base's Chinese name"
    );
    let renamed = app
        .post(
            "/v1/rulesets/validate",
            &json!({"ruleset": {"extends": "hkma", "id": "mine", "name": "Our table"}}),
        )
        .await
        .json();
    assert_eq!(
        (renamed["name"].clone(), renamed["name_zh"].clone()),
        (json!("Our table"), json!("Our table")),
        "a renamed document: its own name in both, not 香港麻雀協會"
    );
    let both = app
        .post("/v1/rulesets/validate", &json!({"ruleset": {"extends": "hkma", "id": "mine", "name": "Our table", "name_zh": "我哋張枱"}}))
        .await
        .json();
    assert_eq!(
        both["name_zh"],
        json!("我哋張枱"),
        "a document's own Chinese name"
    );
}

/// Every built-in ruleset's notes in Chinese too (`notes_zh`, one
/// translation per English note; the English stays the source), outside
/// `ruleset_hash` (the test above pins the hashes from before), and
/// dropped by a document that rewrites the notes without translating them.
#[tokio::test]
async fn every_built_in_ruleset_has_its_notes_in_chinese() {
    let app = spawn_app().await;
    let list = app.get("/v1/rulesets").await.json();
    let ids: Vec<String> = list["rulesets"]
        .as_array()
        .expect("rulesets")
        .iter()
        .map(|r| r["id"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(ids.len(), 11, "eleven built-ins");
    for id in &ids {
        let d = app.get(&format!("/v1/rulesets/{id}")).await.json();
        let notes = d["notes"].as_array().expect("notes");
        let zh = d["notes_zh"]
            .as_array()
            .unwrap_or_else(|| panic!("{id}: notes_zh"));
        assert_eq!(zh.len(), notes.len(), "{id}: one translation per note");
        for (n, z) in notes.iter().zip(zh) {
            let z = z.as_str().unwrap();
            assert!(
                z.chars().any(|c| ('\u{4e00}'..='\u{9fff}').contains(&c)),
                "{id}: {z:?} is Chinese"
            );
            assert_ne!(Some(z), n.as_str(), "{id}: translated, not copied");
            // A house rule is named in Chinese, never by its key ("multiple_winners: head_bump").
            let key = z
                .split(|c: char| !(c.is_ascii_lowercase() || c == '_'))
                .find(|w| w.contains('_') && w.len() > 3);
            assert_eq!(key, None, "{id}: {z:?} names a house rule by its key");
        }
    }
    let hkma = app.get("/v1/rulesets/hkma").await.json();
    assert_eq!(
        hkma["notes_zh"][0],
        json!("3 番起糊，上限 10 番；例牌計 10 番。"),
        "hkma's first note: \"Minimum 3 faan, limit 10; limit hands score 10.\""
    );
    let validate = |doc: Value| {
        let app = &app;
        async move {
            app.post("/v1/rulesets/validate", &json!({ "ruleset": doc }))
                .await
                .json()
        }
    };
    let same = validate(json!({"extends": "hkma", "id": "mine"})).await;
    assert_eq!(
        same["notes_zh"], hkma["notes_zh"],
        "extends alone keeps them"
    );
    let renoted = validate(json!({"extends": "hkma", "id": "mine", "notes": ["Ours."]})).await;
    assert_eq!(renoted["notes"], json!(["Ours."]));
    assert_eq!(
        renoted.get("notes_zh"),
        None,
        "new notes without a translation: not the base's Chinese notes"
    );
    let translated = validate(
        json!({"extends": "hkma", "id": "mine", "notes": ["Ours."], "notes_zh": ["我哋嘅。"]}),
    )
    .await;
    assert_eq!(translated["notes_zh"], json!(["我哋嘅。"]));
    // A translation changes no answer: the hash of the rules alone.
    let retranslated =
        validate(json!({"extends": "hkma", "id": "mine", "notes_zh": ["另一個譯本。"]})).await;
    assert_eq!(
        retranslated["ruleset_hash"], same["ruleset_hash"],
        "notes_zh is not in ruleset_hash"
    );
    // Nor do the notes: new prose keeps the hash, a new minimum moves it.
    assert_eq!(
        renoted["ruleset_hash"], same["ruleset_hash"],
        "notes are not in ruleset_hash"
    );
    let resourced =
        validate(json!({"extends": "hkma", "id": "mine", "source": ["Our own sheet"]})).await;
    assert_eq!(
        resourced["ruleset_hash"], same["ruleset_hash"],
        "the guides cited are not in ruleset_hash"
    );
    let min_4 = validate(json!({"extends": "hkma", "id": "mine", "min_faan": 4})).await;
    assert_ne!(
        min_4["ruleset_hash"], same["ruleset_hash"],
        "a minimum is in ruleset_hash"
    );
}

/// The README's example is what the binary answers: its request sent, the
/// answer (each reading's `set_details` left out, as the README says) is
/// the body it shows, hashes included.
#[tokio::test]
async fn the_readmes_example_is_what_the_binary_answers() {
    let readme =
        std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/README.md")).unwrap();
    let example = &readme[readme.find("## Example").expect("the README's example")..];
    let request = example
        .split("-d '")
        .nth(1)
        .and_then(|rest| rest.split("'\n").next())
        .expect("the curl request");
    let request: Value = serde_json::from_str(request).expect("the request is JSON");
    let shown = example
        .split("```json\n")
        .nth(1)
        .and_then(|rest| rest.split("\n```").next())
        .expect("the body shown");
    let shown: Value = serde_json::from_str(shown).expect("the body shown is JSON");
    let app = spawn_app().await;
    let mut answer = app.post("/v1/score", &request).await.json();
    for d in answer["decompositions"].as_array_mut().unwrap() {
        d.as_object_mut().unwrap().remove("set_details");
    }
    assert_eq!(answer, shown, "README.md, \"Example\"");
}
