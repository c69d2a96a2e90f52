//! A night as CSV (`docs/api.md`, "A night as CSV"): a UTF-8 byte
//! order mark, so that spreadsheet programs read the names as UTF-8; a
//! header row; one row per hand (`hand, round, dealer, result, winners,
//! faan`, each player's points and, where there is money, each player's
//! money); a last row of totals. Quoting and CRLF rows as RFC 4180 says,
//! by the `csv` crate. A cell of text that a spreadsheet would read as a
//! formula starts with `'` ([`text`]).

use crate::api::{change_at, Amount, RuleChange};
use crate::core::ledger::{Ledger, Outcome, PLAYERS};

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

/// The night `l` of the players `names` as CSV bytes; a change of rules
/// shows its house rules as sent (JSON) in the `winners` column.
pub fn ledger_csv(names: &[&str; PLAYERS], l: &Ledger, changes: &[RuleChange<'_>]) -> Vec<u8> {
    let mut out = Vec::with_capacity(64 + l.hands.len() * 64);
    out.extend_from_slice(BOM);
    let mut w = csv::WriterBuilder::new()
        .terminator(csv::Terminator::CRLF)
        .flexible(false)
        .from_writer(out);
    let with_money = l.money.is_some();
    let mut header: Vec<String> = ["hand", "round", "dealer", "result", "winners", "faan"]
        .map(String::from)
        .to_vec();
    header.extend(names.iter().map(|n| text(n.to_string())));
    if with_money {
        header.extend(names.iter().map(|n| text(format!("{n} money"))));
    }
    // Writing to a Vec cannot fail.
    let _ = w.write_record(&header);
    for h in &l.hands {
        let (who, faan) = match &h.outcome {
            Outcome::Win(ws) => (
                ws.iter()
                    .map(|x| {
                        if x.paid {
                            names[x.player].to_string()
                        } else {
                            format!("{} (unpaid)", names[x.player])
                        }
                    })
                    .collect::<Vec<_>>()
                    .join(" + "),
                ws.iter()
                    .map(|x| x.score.total_faan().to_string())
                    .collect::<Vec<_>>()
                    .join(" + "),
            ),
            Outcome::FalseWin { offender } => (names[*offender].to_string(), String::new()),
            Outcome::Rules => (
                change_at(changes, h.index)
                    .map(|c| String::from_utf8_lossy(&super::super::to_json(c.sent)).into_owned())
                    .unwrap_or_default(),
                String::new(),
            ),
            Outcome::Draw => (String::new(), String::new()),
        };
        // A change of rules' JSON starts with `{` and is written as sent.
        let who = text(who);
        let mut row = vec![
            h.index.to_string(),
            h.round_wind.to_string(),
            text(names[h.dealer].to_string()),
            h.outcome.name().to_string(),
            who,
            faan,
        ];
        let rules = matches!(h.outcome, Outcome::Rules);
        row.extend(
            h.deltas
                .iter()
                .map(|d| if rules { String::new() } else { d.to_string() }),
        );
        if with_money {
            row.extend((0..PLAYERS).map(|p| {
                h.money_deltas
                    .map_or(String::new(), |m| Amount(m[p]).text().as_str().to_string())
            }));
        }
        let _ = w.write_record(&row);
    }
    let mut total = vec![
        "total".to_string(),
        String::new(),
        String::new(),
        String::new(),
        String::new(),
        String::new(),
    ];
    total.extend(l.balances.iter().map(i64::to_string));
    if let Some(m) = &l.money {
        total.extend(
            m.balances
                .iter()
                .map(|&c| Amount(c).text().as_str().to_string()),
        );
    }
    let _ = w.write_record(&total);
    w.into_inner().unwrap_or_default()
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
