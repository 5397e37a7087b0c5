/* The classic game (C1-C21) with the `random` strategy (C19) at every seat, as a tight C loop:
 * the yardstick of the jitted classic engine's speed (benchmarks/bench_versus_c.py builds it with
 * `cc -O2` and runs both on one core).
 *
 * It plays the very games the engine plays: the same generator (SplitMix64 keyed by seed and game
 * index, core/rng.py), the same draws at the same moments (docs/protocol-classic.md), fixed
 * seating. It keeps the same per-seat totals as the engine's kernel (core/accounting.py and
 * accumulate_game_nb: wins, florins, payouts, the C21 counters, pairs) and prints them, so the
 * benchmark checks that both played the same games before it compares their speed.
 *
 *     classic_random PLAYERS GAMES SEED   ->  "cpu_seconds S" then one line of totals per seat
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "splitmix64.h"

#define N_CARDS 36
#define N_GOODS 5
#define HOLDS 5
#define MAX_LOT 3
#define DAYS 3
#define TRACK_MAX 7
#define MAX_PLAYERS 6
#define WIN_UNIT 60

/* the engine's stats columns (core/accounting.py, games/classic/engine.py) */
enum { GAMES, WIN60, WIN60_SQ, OUTRIGHT, SHARED, SCORE, SCORE_SQ, SHIP, MAJORITY, BONUS,
       SPENT, LOTS_BOUGHT, CARDS_BOUGHT, LOTS_DISCARDED, FREE_CARDS, PRICE_SPENT, N_STATS };

static const int64_t SHIP_PAYOUTS[MAX_PLAYERS + 1][MAX_PLAYERS] = {
    [3] = {30, 15, 0}, [4] = {30, 20, 10, 0}, [5] = {30, 20, 10, 5, 0}, [6] = {30, 20, 15, 10, 5, 0}};
static const int64_t MAJORITY_PAYOUTS[2] = {10, 5};
static const int64_t TRACK_BONUS[TRACK_MAX + 1] = {0, 0, 0, 0, 0, 5, 10, 20};
static int64_t CARD_GOOD[N_CARDS], CARD_VALUE[N_CARDS];  /* C2: card 7g + k is good g, value (0 1 2 3 4 5 5)[k]; 35 gold */


/* ---- shared places (core/ranking.py): share[place][others] */
static void share_table(const int64_t *payouts, int n_payouts, int64_t share[MAX_PLAYERS + 1][MAX_PLAYERS + 1]) {
    for (int place = 0; place <= MAX_PLAYERS; place++)
        for (int others = 0; others <= MAX_PLAYERS; others++) {
            int64_t total = 0;
            for (int k = place; k < place + others + 1 && k < n_payouts; k++) total += payouts[k];
            share[place][others] = total / (others + 1);
        }
}
static inline void pay_places(const int64_t *score, int n, int64_t share[MAX_PLAYERS + 1][MAX_PLAYERS + 1],
                              int64_t *paid) {
    for (int p = 0; p < n; p++) {
        int place = 0, tied = 0;
        for (int q = 0; q < n; q++) { place += score[q] > score[p]; tied += score[q] == score[p]; }
        paid[p] += share[place][tied - 1];
    }
}

typedef struct {
    int players, removed;
    int64_t start_money;
    int64_t ship_share[MAX_PLAYERS + 1][MAX_PLAYERS + 1], majority_share[MAX_PLAYERS + 1][MAX_PLAYERS + 1];
    int64_t stats[MAX_PLAYERS][N_STATS], pairs[MAX_PLAYERS][MAX_PLAYERS], games, win_margin, ran_out_days;
} run_t;

static void play_game(run_t *run, uint64_t seed, uint64_t game_index) {
    const int players = run->players;
    uint64_t rng = mix64(mix64(seed) ^ game_index);
    int64_t money[MAX_PLAYERS], track[MAX_PLAYERS][N_GOODS] = {{0}}, pay[3][MAX_PLAYERS] = {{0}};
    int64_t spent[MAX_PLAYERS] = {0}, lots_bought[MAX_PLAYERS] = {0}, cards_bought[MAX_PLAYERS] = {0};
    int64_t lots_discarded[MAX_PLAYERS] = {0}, free_cards[MAX_PLAYERS] = {0};
    for (int p = 0; p < players; p++) money[p] = run->start_money;
    int starter = 0;  /* C6 */
    for (int day = 0; day < DAYS; day++) {
        int deck[N_CARDS], deck_len = N_CARDS, ship_len[MAX_PLAYERS] = {0}, open = players;
        int64_t ship_value[MAX_PLAYERS] = {0}, ship_goods[MAX_PLAYERS][N_GOODS] = {{0}};
        for (int c = 0; c < N_CARDS; c++) deck[c] = c;
#define DRAW(card) do { int64_t j_ = below(&rng, deck_len); (card) = deck[j_]; deck[j_] = deck[--deck_len]; } while (0)
#define LOAD(seat, card) do { ship_len[seat]++; ship_value[seat] += CARD_VALUE[card]; \
                              if (CARD_GOOD[card] >= 0) ship_goods[seat][CARD_GOOD[card]]++; } while (0)
        for (int i = 0; i < run->removed; i++) { int card; DRAW(card); (void)card; }  /* C5 */
        int seat = starter;
        for (;;) {
            if (deck_len == 0) { run->ran_out_days++; break; }  /* C12 */
            int max_free = 0, lot[MAX_LOT], lot_len = 1;
            for (int p = 0; p < players; p++) if (HOLDS - ship_len[p] > max_free) max_free = HOLDS - ship_len[p];
            DRAW(lot[0]);  /* C8 */
            while (lot_len < MAX_LOT && deck_len > 0 && max_free > lot_len && coin(&rng)) DRAW(lot[lot_len++]);
            int64_t highest = 0;
            int winner = -1;
            for (int b = seat + 1 == players ? 0 : seat + 1;; b = b + 1 == players ? 0 : b + 1) {  /* C9 */
                if (HOLDS - ship_len[b] >= lot_len && money[b] > highest && coin(&rng)) {
                    int64_t top = money[b] < highest + 10 ? money[b] : highest + 10;
                    highest = highest + 1 + below(&rng, top - highest);
                    winner = b;
                }
                if (b == seat) break;
            }
            if (winner >= 0) {  /* C10 */
                money[winner] -= highest;
                spent[winner] += highest;
                lots_bought[winner]++;
                cards_bought[winner] += lot_len;
                for (int i = 0; i < lot_len; i++) LOAD(winner, lot[i]);
                if (ship_len[winner] == HOLDS) open--;
            } else {
                lots_discarded[seat]++;
            }
            if (winner >= 0 && open == 1) {  /* C11 */
                int last = 0;
                while (ship_len[last] == HOLDS) last++;
                while (ship_len[last] < HOLDS && deck_len > 0) { int card; DRAW(card); LOAD(last, card); free_cards[last]++; }
                break;
            }
            if (open == 0) break;
            do seat = seat + 1 == players ? 0 : seat + 1; while (ship_len[seat] == HOLDS);  /* C7 */
        }
        /* C13-C16 */
        int64_t ship_pay[MAX_PLAYERS] = {0}, majority_pay[MAX_PLAYERS] = {0}, bonus_pay[MAX_PLAYERS] = {0};
        pay_places(ship_value, players, run->ship_share, ship_pay);
        for (int good = 0; good < N_GOODS; good++) {
            int64_t levels[MAX_PLAYERS];
            for (int p = 0; p < players; p++) {
                int64_t level = track[p][good] + ship_goods[p][good];
                track[p][good] = levels[p] = level < TRACK_MAX ? level : TRACK_MAX;
                bonus_pay[p] += TRACK_BONUS[levels[p]];
            }
            pay_places(levels, players, run->majority_share, majority_pay);
        }
        for (int p = 0; p < players; p++) {
            money[p] += ship_pay[p] + majority_pay[p] + bonus_pay[p];
            pay[0][p] += ship_pay[p]; pay[1][p] += majority_pay[p]; pay[2][p] += bonus_pay[p];
        }
        if (day < DAYS - 1) {  /* C6: the poorest starts; ties drawn in seat order */
            int64_t fewest = money[0];
            int tied = 0;
            for (int p = 0; p < players; p++) { if (money[p] < fewest) { fewest = money[p]; tied = 0; } tied += money[p] == fewest; }
            int64_t pick = tied > 1 ? below(&rng, tied) : 0;
            for (int p = 0; p < players; p++) if (money[p] == fewest && pick-- == 0) { starter = p; break; }
        }
    }
    /* C18, C21: the kernel's accounting */
    int64_t best = money[0], runner_up = -(1LL << 62);
    int winners = 0;
    for (int p = 0; p < players; p++) if (money[p] > best) best = money[p];
    for (int p = 0; p < players; p++) { winners += money[p] == best; if (money[p] < best && money[p] > runner_up) runner_up = money[p]; }
    run->games++;
    run->win_margin += winners == 1 ? best - runner_up : 0;
    for (int a = 0; a < players; a++)
        for (int b = 0; b < players; b++)
            if (a != b) run->pairs[a][b] += money[a] > money[b] ? 2 : money[a] == money[b];
    for (int p = 0; p < players; p++) {
        int64_t *s = run->stats[p], won = money[p] == best, share = won ? WIN_UNIT / winners : 0;
        s[GAMES]++; s[WIN60] += share; s[WIN60_SQ] += share * share;
        s[OUTRIGHT] += won && winners == 1; s[SHARED] += won && winners > 1;
        s[SCORE] += money[p]; s[SCORE_SQ] += money[p] * money[p];
        s[SHIP] += pay[0][p]; s[MAJORITY] += pay[1][p]; s[BONUS] += pay[2][p];
        s[SPENT] += spent[p]; s[LOTS_BOUGHT] += lots_bought[p]; s[CARDS_BOUGHT] += cards_bought[p];
        s[LOTS_DISCARDED] += lots_discarded[p]; s[FREE_CARDS] += free_cards[p]; s[PRICE_SPENT] += spent[p];
    }
}

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: classic_random PLAYERS GAMES SEED\n"); return 2; }
    static run_t run;
    run.players = atoi(argv[1]);
    int64_t games = atoll(argv[2]);
    uint64_t seed = strtoull(argv[3], NULL, 10);
    if (run.players < 3 || run.players > MAX_PLAYERS || games < 1) { fprintf(stderr, "bad arguments\n"); return 2; }
    for (int c = 0; c < N_CARDS; c++) {
        CARD_GOOD[c] = c < 35 ? c / 7 : -1;
        CARD_VALUE[c] = c < 35 ? "\0\1\2\3\4\5\5"[c % 7] : 10;
    }
    run.removed = N_CARDS - 6 * run.players;
    run.start_money = run.players <= 4 ? 40 : 30;
    share_table(SHIP_PAYOUTS[run.players], run.players, run.ship_share);
    share_table(MAJORITY_PAYOUTS, 2, run.majority_share);
    struct timespec t0, t1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    for (int64_t g = 0; g < games; g++) play_game(&run, seed, (uint64_t)g);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    printf("cpu_seconds %.6f\n", (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
    printf("run %" PRId64 " %" PRId64 " %" PRId64 "\n", run.games, run.win_margin, run.ran_out_days);
    for (int p = 0; p < run.players; p++) {
        for (int k = 0; k < N_STATS; k++) printf("%s%" PRId64, k ? " " : "", run.stats[p][k]);
        printf("\n");
    }
    return 0;
}
