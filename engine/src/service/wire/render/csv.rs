//! A night as CSV (`docs/api.md`, "A night as CSV"), for people: a UTF-8
//! byte order mark, so that spreadsheet programs read the names as UTF-8;
//! a header row; one row per hand (`hand, game, round, dealer, result,
//! winners, win_by, discarder, faan`, each player's points and, where
//! there is money, each player's money); a row of totals; then the settling
//! up, one row per transfer. The header and the words in cells follow the
//! reader's language ([`Lang`]). Quoting and CRLF rows as RFC 4180 says,
//! by the `csv` crate. A cell of text that a spreadsheet would read as a
//! formula starts with `'` ([`text`]).

use crate::api::{change_at, Amount};
use crate::core::ledger::{Ledger, LedgerHand, Outcome, Transfer, PLAYERS};
use crate::core::RuleChange;
use crate::core::{WinBy, Wind};

/// The UTF-8 byte order mark.
const BOM: &[u8] = b"\xEF\xBB\xBF";

/// A cell of text as written: one starting with `=`, `+`, `-`, `@`, a tab
/// or a carriage return is read by spreadsheet programs as a formula (a
/// player named `=HYPERLINK(...)` would be a link), so it gets a leading
/// `'`, the OWASP way to keep it text. Numbers never pass through here:
/// a negative amount stays a number.
fn text(cell: String) -> String {
    match cell.as_bytes().first() {
        Some(b'=' | b'+' | b'-' | b'@' | b'\t' | b'\r') => format!("'{cell}"),
        _ => cell,
    }
}

/// The language of a CSV's header and words: Traditional Chinese for
/// `zh-HK`, `zh-TW` and `zh` (and `zh-Hant`), English for anything else.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Lang {
    #[default]
    En,
    Zh,
}

impl Lang {
    /// The language an `Accept-Language` value asks for: its range of the
    /// highest weight (the first of equals), `*` and unknown ones English.
    pub fn from_accept_language(header: Option<&str>) -> Lang {
        let mut best: Option<(f32, Lang)> = None;
        for range in header.unwrap_or_default().split(',') {
            let mut parts = range.split(';');
            let tag = parts.next().unwrap_or_default().trim().to_ascii_lowercase();
            let q = parts
                .filter_map(|p| p.trim().strip_prefix("q="))
                .find_map(|q| q.trim().parse::<f32>().ok())
                .unwrap_or(1.0);
            if tag.is_empty() || q <= 0.0 || best.is_some_and(|(b, _)| q <= b) {
                continue;
            }
            let zh = matches!(tag.as_str(), "zh" | "zh-hk" | "zh-tw" | "zh-mo")
                || tag.starts_with("zh-hant");
            best = Some((q, if zh { Lang::Zh } else { Lang::En }));
        }
        best.map_or(Lang::En, |(_, l)| l)
    }

    /// The words of this language (`web/i18n/zh.js`'s, where it has them).
    fn words(self) -> &'static Words {
        match self {
            Lang::En => &EN,
            Lang::Zh => &ZH,
        }
    }
}

/// Every word a CSV writes.
struct Words {
    header: [&'static str; 9],
    money: &'static str,
    winds: [&'static str; 4],
    win: &'static str,
    draw: &'static str,
    false_win: &'static str,
    rules: &'static str,
    new_game: &'static str,
    list: &'static str,
    unpaid: &'static str,
    yes_no: [&'static str; 2],
    win_by: [&'static str; 3],
    total: &'static str,
    settle_up: [&'static str; 4],
}

const EN: Words = Words {
    header: [
        "hand",
        "game",
        "round",
        "dealer",
        "result",
        "winners",
        "win_by",
        "discarder",
        "faan",
    ],
    money: " money",
    winds: ["east", "south", "west", "north"],
    win: "win",
    draw: "draw",
    false_win: "false win",
    rules: "rules: ",
    new_game: "new game: ",
    list: ", ",
    unpaid: " (unpaid)",
    yes_no: ["yes", "no"],
    win_by: ["self draw", "discard", "robbing a kong"],
    total: "total",
    settle_up: ["settle up", "from", "to", "amount"],
};

const ZH: Words = Words {
    header: [
        "局",
        "場",
        "圈",
        "莊家",
        "結果",
        "食糊者",
        "食糊方式",
        "出銃者",
        "番",
    ],
    money: " 銀碼",
    winds: ["東", "南", "西", "北"],
    win: "食糊",
    draw: "流局",
    false_win: "詐糊",
    rules: "改規則：",
    new_game: "新一場：",
    list: "、",
    unpaid: "（截糊）",
    yes_no: ["是", "否"],
    win_by: ["自摸", "出銃", "搶槓"],
    total: "累計",
    settle_up: ["找數", "付", "收", "金額"],
};

impl Words {
    fn wind(&self, w: Wind) -> &'static str {
        self.winds[w.index()]
    }

    fn win_by(&self, w: WinBy) -> &'static str {
        match w {
            WinBy::SelfDraw => self.win_by[0],
            WinBy::Discard => self.win_by[1],
            WinBy::RobbingKong => self.win_by[2],
        }
    }

    /// A change of rules as sent, in words: `stake 2, false_win limit`
    /// (keys in order; `null` is the ruleset's own value again).
    fn change(&self, v: &serde_json::Value) -> String {
        use serde_json::Value;
        match v {
            Value::Null => "-".into(),
            Value::Bool(b) => self.yes_no[usize::from(!*b)].into(),
            Value::Number(n) => n.to_string(),
            Value::String(s) => s.clone(),
            Value::Array(xs) => xs
                .iter()
                .map(|x| self.change(x))
                .collect::<Vec<_>>()
                .join(" "),
            Value::Object(m) => m
                .iter()
                .map(|(k, x)| match x {
                    Value::Object(_) => format!("{k} ({})", self.change(x)),
                    _ => format!("{k} {}", self.change(x)),
                })
                .collect::<Vec<_>>()
                .join(", "),
        }
    }
}

/// The night `l` of the players `names` as CSV bytes in `lang`.
pub fn ledger_csv(
    names: &[&str; PLAYERS],
    l: &Ledger,
    changes: &[RuleChange],
    lang: Lang,
) -> Vec<u8> {
    let words = lang.words();
    let mut out = Vec::with_capacity(64 + l.hands.len() * 64);
    out.extend_from_slice(BOM);
    let mut w = csv::WriterBuilder::new()
        .terminator(csv::Terminator::CRLF)
        .flexible(false)
        .from_writer(out);
    let with_money = l.money.is_some();
    let mut header: Vec<String> = words.header.map(String::from).to_vec();
    header.extend(names.iter().map(|n| text(n.to_string())));
    if with_money {
        header.extend(names.iter().map(|n| text(format!("{n}{}", words.money))));
    }
    let width = header.len();
    // Writing to a Vec cannot fail.
    let _ = w.write_record(&header);
    for h in &l.hands {
        let mut row = hand_cells(words, names, h, changes);
        row.extend(h.deltas.iter().map(|d| {
            if h.outcome.played() {
                d.to_string()
            } else {
                String::new()
            }
        }));
        if with_money {
            row.extend((0..PLAYERS).map(|p| {
                h.money_deltas
                    .map_or(String::new(), |m| Amount(m[p]).text().as_str().to_string())
            }));
        }
        let _ = w.write_record(&row);
    }
    let mut total = vec![String::new(); words.header.len()];
    total[0] = words.total.to_string();
    total.extend(l.balances.iter().map(i64::to_string));
    if let Some(m) = &l.money {
        total.extend(
            m.balances
                .iter()
                .map(|&c| Amount(c).text().as_str().to_string()),
        );
    }
    let _ = w.write_record(&total);
    // The settling up: in money where there is a stake, else in points.
    let (settle, in_money): (&[Transfer], bool) = match &l.money {
        Some(m) => (&m.transfers, true),
        None => (&l.transfers, false),
    };
    let padded = |cells: Vec<String>| {
        let mut cells = cells;
        cells.resize(width, String::new());
        cells
    };
    let _ = w.write_record(padded(words.settle_up.map(String::from).to_vec()));
    for t in settle {
        let amount = if in_money {
            Amount(t.amount).text().as_str().to_string()
        } else {
            t.amount.to_string()
        };
        let _ = w.write_record(padded(vec![
            String::new(),
            text(names[t.from].to_string()),
            text(names[t.to].to_string()),
            amount,
        ]));
    }
    w.into_inner().unwrap_or_default()
}

/// A hand's cells before the players' points: `hand` (its number),
/// `game`, `round`, `dealer`, `result`, `winners` (a false win's
/// offender), `win_by`, `discarder`, `faan`.
fn hand_cells(
    words: &Words,
    names: &[&str; PLAYERS],
    h: &LedgerHand,
    changes: &[RuleChange],
) -> Vec<String> {
    let joined = |cells: Vec<String>| {
        let mut cells = cells;
        cells.dedup();
        cells.join(" + ")
    };
    let (result, who, win_by, discarder, faan) = match &h.outcome {
        Outcome::Win(ws) => (
            words.win.to_string(),
            ws.iter()
                .map(|x| {
                    let n = names[x.player];
                    if x.paid {
                        n.to_string()
                    } else {
                        format!("{n}{}", words.unpaid)
                    }
                })
                .collect::<Vec<_>>()
                .join(" + "),
            joined(ws.iter().map(|x| words.win_by(x.win_by).into()).collect()),
            joined(
                ws.iter()
                    .filter_map(|x| x.discarder.map(|d| names[d].to_string()))
                    .collect(),
            ),
            ws.iter()
                .map(|x| x.score.total_faan().to_string())
                .collect::<Vec<_>>()
                .join(" + "),
        ),
        Outcome::Draw => (
            words.draw.into(),
            String::new(),
            String::new(),
            String::new(),
            String::new(),
        ),
        Outcome::FalseWin { offender } => (
            words.false_win.into(),
            names[*offender].to_string(),
            String::new(),
            String::new(),
            String::new(),
        ),
        Outcome::Rules => (
            format!(
                "{}{}",
                words.rules,
                change_at(changes, h.index).map_or(String::new(), |c| {
                    words.change(&serde_json::to_value(&c.sent).unwrap_or_default())
                })
            ),
            String::new(),
            String::new(),
            String::new(),
            String::new(),
        ),
        Outcome::NewGame => {
            // The seats, east first: the first dealer, then in turn.
            let mut by_seat = [""; PLAYERS];
            for (n, w) in names.iter().zip(h.seats) {
                by_seat[w.index()] = n;
            }
            (
                format!("{}{}", words.new_game, by_seat.join(words.list)),
                String::new(),
                String::new(),
                String::new(),
                String::new(),
            )
        }
    };
    vec![
        h.number.map_or(String::new(), |n| n.to_string()),
        h.game.to_string(),
        words.wind(h.round_wind).to_string(),
        text(names[h.dealer].to_string()),
        text(result),
        text(who),
        win_by,
        text(discarder),
        faan,
    ]
}

#[cfg(test)]
mod tests {
    use super::text;

    /// Each of OWASP's six leading characters gets a `'`; a name that only
    /// contains one, or starts with anything else, is written as it is.
    #[test]
    fn a_cell_a_spreadsheet_would_run_starts_with_a_quote() {
        for (cell, want) in [
            ("=1+1", "'=1+1"),
            ("+Ann", "'+Ann"),
            ("-Dan", "'-Dan"),
            ("@SUM(A1)", "'@SUM(A1)"),
            ("\tBen", "'\tBen"),
            ("\rCat", "'\rCat"),
            ("Ka-ho, Jr.", "Ka-ho, Jr."),
            ("阿美", "阿美"),
            ("'Ann", "'Ann"),
            ("", ""),
        ] {
            assert_eq!(text(cell.to_string()), want, "case: {cell:?}");
        }
    }
}
