//! Shared test helpers: turn a request in the API's JSON shape into core
//! types, so that fixture files are written exactly as a client posts them.
#![allow(dead_code)]

use faan::core::{
    ContextSpec, DiscardPayment, HandSpec, HouseRules, MeldKind, MeldSpec, PatternOverride,
    PointsSpec, Replacement, WinBy, Wind,
};
use serde_json::Value;

pub struct Request {
    pub ruleset: String,
    pub hand: HandSpec,
    pub context: ContextSpec,
    pub house: HouseRules,
}

fn wind(v: &Value) -> Wind {
    v.as_str()
        .and_then(|s| s.parse().ok())
        .unwrap_or_else(|| panic!("not a wind: {v}"))
}

pub fn request(v: &Value) -> Request {
    let h = &v["hand"];
    let melds = h["melds"]
        .as_array()
        .map(|a| {
            a.iter()
                .map(|m| MeldSpec {
                    kind: match m["kind"].as_str().unwrap() {
                        "chow" => MeldKind::Chow,
                        "pung" => MeldKind::Pung,
                        "kong" => MeldKind::Kong,
                        k => panic!("meld kind {k}"),
                    },
                    tiles: m["tiles"].as_str().unwrap().to_string(),
                    concealed: m["concealed"].as_bool().unwrap_or(false),
                    added: m["added"].as_bool().unwrap_or(false),
                })
                .collect()
        })
        .unwrap_or_default();
    let hand = HandSpec {
        tiles: h["tiles"].as_str().unwrap_or("").to_string(),
        melds,
        winning_tile: h["winning_tile"].as_str().map(String::from),
        flowers: h["flowers"]
            .as_array()
            .map(|a| a.iter().map(|f| f.as_str().unwrap().to_string()).collect())
            .unwrap_or_default(),
    };
    let c = &v["context"];
    let flag = |k: &str| c[k].as_bool().unwrap_or(false);
    let context = ContextSpec {
        win_by: match c["win_by"].as_str().unwrap_or("") {
            "self_draw" => WinBy::SelfDraw,
            "discard" => WinBy::Discard,
            "robbing_kong" => WinBy::RobbingKong,
            w => panic!("win_by {w}"),
        },
        seat_wind: wind(&c["seat_wind"]),
        round_wind: wind(&c["round_wind"]),
        discarder: c.get("discarder").filter(|d| !d.is_null()).map(wind),
        replacement: match c["replacement"].as_str().unwrap_or("none") {
            "none" => Replacement::None,
            "kong" => Replacement::Kong,
            "flower" => Replacement::Flower,
            r => panic!("replacement {r}"),
        },
        double_kong: flag("double_kong"),
        last_tile: flag("last_tile"),
        heavenly: flag("heavenly"),
        earthly: flag("earthly"),
        liable: c.get("liable").filter(|d| !d.is_null()).map(wind),
        flower_win: flag("flower_win"),
    };
    Request {
        ruleset: v["ruleset"].as_str().unwrap_or("").to_string(),
        hand,
        context,
        house: house_rules(&v["house_rules"]),
    }
}

pub fn house_rules(v: &Value) -> HouseRules {
    let mut h = HouseRules::default();
    let Some(o) = v.as_object() else { return h };
    h.min_faan = o.get("min_faan").and_then(Value::as_u64).map(|n| n as u32);
    h.limit = o.get("limit").and_then(Value::as_u64).map(|n| n as u32);
    h.flowers = o.get("flowers").and_then(Value::as_bool);
    h.points = o.get("points").map(|p| match p {
        Value::String(s) if s == "full_spicy" => PointsSpec::FullSpicy,
        Value::String(s) if s == "half_spicy" => PointsSpec::HalfSpicy,
        Value::Array(a) => PointsSpec::Table(a.iter().map(|x| x.as_u64().unwrap()).collect()),
        other => panic!("points {other}"),
    });
    h.discard_payment = o.get("discard_payment").map(|d| match d.as_str().unwrap() {
        "discarder_pays_all" => DiscardPayment::DiscarderPaysAll,
        "discarder_pays_half" => DiscardPayment::DiscarderPaysHalf,
        "discarder_pays_double" => DiscardPayment::DiscarderPaysDouble,
        other => panic!("discard_payment {other}"),
    });
    if let Some(p) = o.get("patterns").and_then(Value::as_object) {
        for (k, v) in p {
            let ov = match v {
                Value::Null => PatternOverride::Off,
                Value::String(s) if s == "limit" => PatternOverride::Limit,
                Value::Number(n) => PatternOverride::Faan(n.as_i64().unwrap()),
                other => panic!("pattern override {other}"),
            };
            h.patterns.push((k.clone(), ov));
        }
    }
    h
}

/// Loads every `*.json` fixture file in `tests/fixtures/` as (file, case) pairs.
pub fn fixture_cases() -> Vec<(String, Value)> {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixtures");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .expect("tests/fixtures")
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| p.extension().is_some_and(|x| x == "json"))
        .collect();
    files.sort();
    let mut out = Vec::new();
    for f in files {
        let text = std::fs::read_to_string(&f).unwrap();
        let v: Value =
            serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", f.display()));
        let name = f.file_name().unwrap().to_string_lossy().into_owned();
        for case in v["cases"]
            .as_array()
            .unwrap_or_else(|| panic!("{name}: no cases array"))
        {
            out.push((name.clone(), case.clone()));
        }
    }
    out
}
