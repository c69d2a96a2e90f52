//! What the page must say in each language the browser tests run in.

/// What the page must say in one language (from web/i18n/*.js, checked
/// against what a player reads, not against the table itself).
pub struct Lang {
    pub code: &'static str,
    pub html_lang: &'static str,
    pub score_button: &'static str,
    pub south: &'static str,
    /// The quiet hand's money, explained.
    pub self_draw_money: &'static str,
    /// The ruleset summary's first line begins with this.
    pub summary: &'static str,
    pub last_tile_note: &'static str,
    pub pending_note: &'static str,
    pub stale_note: &'static str,
    pub fifth_refused: &'static str,
    pub five_typed: &'static str,
    pub discarder_error: &'static str,
    pub waits_button_with_meld: &'static str,
    pub winter_face: &'static str,
    /// The Table: the coming hand after Ann's deal passed to Ben.
    pub table_hand2: &'static str,
    /// After Ben's dealer win (Wisteria Court passes the deal), and after a false win (it stays).
    pub table_hand3_cat: &'static str,
    pub table_hand4_cat: &'static str,
    /// Ben's self-draw in the first hand, in the running table.
    pub table_ben_wins: &'static str,
    pub table_false_win: &'static str,
    /// One settling-up payment after Ben's two self-draws.
    pub table_ann_pays: &'static str,
    pub not_winning: &'static str,
    /// The ledger's refusal of Ben's hand, naming him.
    pub not_winning_ben: &'static str,
    /// The double win: both winners in the table's result column.
    pub table_double_win: &'static str,
    pub table_double_win_head_bump: &'static str,
    /// Wisteria Court passes the deal: its default, first in the select.
    pub table_keeps_default: &'static str,
    pub table_stake_shown: &'static str,
    pub table_cat_paid_money: &'static str,
    pub table_stake_error: &'static str,
    /// The optional pattern switched on, as the page names it (the server's name_zh in Chinese).
    pub voided_suit: &'static str,
    pub custom_name: &'static str,
    /// Seven pairs' changed contains, listed in the panel.
    pub seven_pairs_stacks: &'static str,
    /// The contains cycle refused at its row.
    pub contains_cycle: &'static str,
    /// An exclusive pair, as the panel and the chart view name it.
    pub exclusive_pair: &'static str,
    /// The House rules count with two rules set.
    pub house_count_2: &'static str,
    /// Counts in the words of the language (one house rule, one tile).
    pub house_count_1: &'static str,
    pub waits_button_one: &'static str,
    /// The count under the hand box at fourteen tiles: a count, never "a complete hand".
    pub count_14: &'static str,
    /// The winning tile's badge.
    pub win_badge: &'static str,
    /// Wisteria Court's name as the page shows it (name_zh in Chinese).
    pub wisteria_name: &'static str,
    /// Wisteria Court's first note (notes_zh in Chinese).
    pub wisteria_first_note: &'static str,
    /// The chart's line where limits add and a total above the limit pays one limit.
    pub limits_once_line: &'static str,
    /// A server refusal of the house rule, at its control (the page's words around the server's).
    pub limits_pay_refused: &'static str,
    /// A co-winner whose hand ends on another tile.
    pub co_winner_tile: &'static str,
    /// The night's money column, captioned.
    pub money_caption: &'static str,
    /// A ledger hand below HKMA's minimum of 3 (`below_minimum`).
    pub below_minimum: &'static str,
    pub rescoring: &'static str,
    pub house_rules_label: &'static str,
    pub import_refused: &'static str,
    pub table_caption: &'static str,
    pub unreachable: &'static str,
    /// Which tile to discard: its button, and the mark of a wait that
    /// meets the minimum only when self-drawn.
    pub discard_button: &'static str,
    pub discard_self_draw_only: &'static str,
    /// What the figures assume, with hand changes off, on, and on with
    /// stepping back a shanten (each after the line that nobody else wins first).
    pub assumes_off: &'static str,
    pub assumes_on: &'static str,
    pub assumes_down: &'static str,
}

pub const EN: Lang = Lang {
    code: "en",
    html_lang: "en",
    score_button: "Score",
    south: "South",
    self_draw_money: "Self-draw: each of the three others pays 2 × 16 = 32.",
    summary: "Minimum 0 faan · limit 10 faan",
    last_tile_note: "Winning tile: 5s — the last tile entered.",
    pending_note: "waiting for the suit letter after 5",
    stale_note: "Out of date",
    fifth_refused: "There are only four 1m",
    five_typed: "South's hand has five 1m",
    discarder_error: "The discarder cannot be the winner (South).",
    waits_button_with_meld: "Waits (10 tiles)",
    winter_face: "Wint",
    table_hand2: "Hand 2: East round, Ben deals.",
    table_hand3_cat: "Hand 3: East round, Cat deals.",
    table_hand4_cat: "Hand 4: East round, Cat deals.",
    table_ben_wins: "Ben wins, 4 faan",
    table_false_win: "False win by Dan: pays each other player 6",
    table_ann_pays: "Ann pays Ben 64",
    not_winning: "These tiles do not make a winning hand",
    not_winning_ben: "Ben's tiles do not make a winning hand",
    table_double_win: "Ben wins, 3 faan; Cat wins, 6 faan",
    table_double_win_head_bump: "Ben wins, 3 faan; Cat also won, 6 faan (not paid)",
    table_keeps_default: "ruleset: no",
    table_stake_shown: "$0.50 a point",
    table_cat_paid_money: "Dan pays Cat $40.00",
    table_stake_error: "Give the stake as money per point, e.g. 0.50.",
    voided_suit: "Voided suit",
    custom_name: "Wisteria Court Mahjong (house rules)",
    seven_pairs_stacks: "Seven pairs: nothing (ruleset: Concealed hand)",
    contains_cycle:
        "Concealed hand would contain itself through Seven pairs: untick one of the two.",
    exclusive_pair: "All chows ⟷ Concealed hand",
    house_count_2: "(2 changes)",
    house_count_1: "(1 change)",
    waits_button_one: "Waits (1 tile)",
    count_14: "14 concealed tiles: the count for a win",
    win_badge: "win",
    wisteria_name: "Wisteria Court Mahjong",
    wisteria_first_note: "Minimum 0 by default; the table offers 0, 1 or 3 faan.",
    limits_once_line:
        "Limit hands add to the other faan, with no cap; a total above the limit pays the limit's points once.",
    limits_pay_refused: "This house rule cannot be used with this ruleset:",
    co_winner_tile: "winners on one discard win on the same tile",
    money_caption: "money, this hand",
    below_minimum: "hand scores 2 faan, below the minimum of 3: it cannot be declared",
    rescoring: "Rescoring",
    house_rules_label: "+ house rules",
    import_refused: "Not imported",
    table_caption: "this hand",
    unreachable: "Could not reach the server.",
    discard_button: "Which tile to discard",
    discard_self_draw_only: "self-drawn only",
    assumes_off: "These chances assume nobody else wins, claims a tile or declares a kong first. Hand changes off: a draw that does not bring the hand nearer to ready is thrown at once.",
    assumes_on: "These chances assume nobody else wins, claims a tile or declares a kong first. Hand changes on: the player may keep a draw that widens the wait or builds value, throwing another tile that keeps the hand as near to ready.",
    assumes_down: "These chances assume nobody else wins, claims a tile or declares a kong first. Hand changes on, stepping back a shanten too: the player may keep a draw that widens the wait or builds value, throwing another tile, even one that leaves the hand a tile further from ready.",
};

pub const ZH: Lang = Lang {
    code: "zh",
    html_lang: "zh-Hant-HK",
    score_button: "計番",
    south: "南",
    self_draw_money: "自摸：其餘三家各付 2 × 16 = 32。",
    summary: "最少 0 番起糊 · 上限 10 番",
    last_tile_note: "食糊張：五索 — 最後輸入的一張。",
    pending_note: "5 之後要加花色字母",
    stale_note: "已過時",
    fifth_refused: "一萬 只有四張",
    five_typed: "南家手牌有五張一萬",
    discarder_error: "出銃者不能是食糊者（南家）。",
    waits_button_with_meld: "聽牌10張",
    winter_face: "冬",
    table_hand2: "第 2 局：東圈，Ben 做莊。",
    table_hand3_cat: "第 3 局：東圈，Cat 做莊。",
    table_hand4_cat: "第 4 局：東圈，Cat 做莊。",
    table_ben_wins: "Ben 食糊，4 番",
    table_false_win: "Dan 詐糊：賠每位玩家 6",
    table_ann_pays: "Ann 付 Ben 64",
    not_winning: "這些牌未能食糊",
    not_winning_ben: "Ben 的牌未能食糊",
    table_double_win: "Ben 食糊，3 番；Cat 食糊，6 番",
    table_double_win_head_bump: "Ben 食糊，3 番；Cat 亦食糊，6 番（截糊，不計）",
    table_keeps_default: "照規則組：否",
    table_stake_shown: "每分 $0.50",
    table_cat_paid_money: "Dan 付 Cat $40.00",
    table_stake_error: "注碼要寫成每分幾多錢，例如 0.50。",
    voided_suit: "缺一門",
    custom_name: "Wisteria Court Mahjong（自訂規則）",
    seven_pairs_stacks: "七對子：不包含其他番種（規則組：門前清）",
    contains_cycle: "門前清 經 七對子 會包含返自己：請剔走其中一個。",
    exclusive_pair: "平糊 ⟷ 門前清",
    house_count_2: "（已設 2 項）",
    house_count_1: "（已設 1 項）",
    waits_button_one: "聽牌1張",
    count_14: "門前 14 張：夠張數食糊",
    win_badge: "食糊",
    wisteria_name: "紫藤苑麻雀",
    wisteria_first_note: "預設 0 番起糊；番表可選 0、1 或 3 番起糊。",
    limits_once_line: "爆棚可以同其他番數相加，不設上限；超出上限時最多只計一個爆棚的分。",
    // The server's English detail is not repeated in the Chinese page.
    limits_pay_refused: "這項自訂規則不適用於這個規則組，",
    co_winner_tile: "一炮多響要食同一隻牌",
    money_caption: "錢（今局）",
    below_minimum: "的手牌得 2 番，未夠 3 番起糊：不能食糊",
    rescoring: "重新計番中",
    house_rules_label: "＋自訂規則",
    import_refused: "未有匯入",
    table_caption: "今局",
    unreachable: "連接不到伺服器。",
    discard_button: "打邊隻",
    discard_self_draw_only: "自摸先夠番",
    assumes_off: "以上機會假設期間無人食糊、上牌、碰牌或開槓。 不換牌：摸到不能令手牌更接近聽牌的牌，即刻打出。",
    assumes_on: "以上機會假設期間無人食糊、上牌、碰牌或開槓。 可換牌：摸到可以改善聽口或者做番的牌可以留低，改打另一隻不會令向聽增加的牌。",
    assumes_down: "以上機會假設期間無人食糊、上牌、碰牌或開槓。 可換牌，亦可退一向聽：摸到可以改善聽口或者做番的牌可以留低，改打另一隻牌，即使會離聽牌遠一步。",
};
