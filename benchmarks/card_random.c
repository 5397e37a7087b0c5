/* The card game (R1-R25) with the `random` strategy (R23) at every seat, as a tight C loop: the
 * yardstick of the jitted card engine's speed, written as classic_random.c is (see there), so that
 * benchmarks/bench_versus_c.py measures both engines against C the same way.
 *
 * It plays the very games the engine plays (core/rng.py, docs/protocol.md, standard rules, fixed
 * seating) and keeps the engine's per-seat and run totals, so the benchmark checks that both
 * played the same games before it compares their speed. The deck comes from a file: its card
 * count, then one line per card id: good (-1 none), icons, value, green (0/1).
 *
 *     card_random PLAYERS GAMES SEED DECKFILE  ->  "cpu_seconds S", "run ...", then one line per seat
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#include "splitmix64.h"

#define MAX_CARDS 1000
#define N_GOODS 5
#define DAYS 3
#define MAX_PLAYERS 6
#define MAX_REVEALS 3
#define WIN_UNIT 60
#define COIN 5 /* R15: shares are rounded down to 5 florins */

/* the engine's stats columns (core/accounting.py) */
enum { GAMES, WIN60, WIN60_SQ, OUTRIGHT, SHARED, SCORE, SCORE_SQ, SHIP, MAJORITY, BONUS, N_STATS };

static const int64_t SHIP_PAYOUTS[MAX_PLAYERS + 1][MAX_PLAYERS] = {
    [2] = {20, 0}, [3] = {30, 15, 0}, [4] = {30, 20, 10, 0}, [5] = {30, 20, 10, 5, 0}, [6] = {30, 20, 15, 10, 5, 0}};
static const int64_t MAJORITY_PAYOUTS[2] = {10, 5};


/* ---- shared places (core/ranking.py): share[place][others], rounded down to COIN */
static void share_table(const int64_t *payouts, int n_payouts, int64_t share[MAX_PLAYERS + 1][MAX_PLAYERS + 1]) {
    for (int place = 0; place <= MAX_PLAYERS; place++)
        for (int others = 0; others <= MAX_PLAYERS; others++) {
            int64_t total = 0;
            for (int k = place; k < place + others + 1 && k < n_payouts; k++) total += payouts[k];
            share[place][others] = total / (others + 1) / COIN * COIN;
        }
}
static inline void pay_places(const int64_t *score, int n, int64_t share[MAX_PLAYERS + 1][MAX_PLAYERS + 1],
                              int64_t min_score, int64_t *paid) {
    for (int p = 0; p < n; p++) {
        if (score[p] < min_score) continue;  /* R17: no icon, no place */
        int place = 0, tied = 0;
        for (int q = 0; q < n; q++) { place += score[q] > score[p]; tied += score[q] == score[p]; }
        paid[p] += share[place][tied - 1];
    }
}

typedef struct {
    int players, capacity, n_cards;
    int64_t bonus_min;
    int good[MAX_CARDS], icons[MAX_CARDS], value[MAX_CARDS], green[MAX_CARDS];
    int64_t ship_share[MAX_PLAYERS + 1][MAX_PLAYERS + 1], majority_share[MAX_PLAYERS + 1][MAX_PLAYERS + 1];
    int64_t stats[MAX_PLAYERS][N_STATS], pairs[MAX_PLAYERS][MAX_PLAYERS], games, win_margin, ran_out_days;
} run_t;

static void play_game(run_t *run, uint64_t seed, uint64_t game_index) {
    const int players = run->players, capacity = run->capacity;
    uint64_t rng = mix64(mix64(seed) ^ game_index);
    int deck[MAX_CARDS], market[MAX_CARDS], deck_len = run->n_cards, market_len = 0;
    int64_t florins[MAX_PLAYERS] = {0}, warehouse[MAX_PLAYERS][N_GOODS] = {{0}}, pay[3][MAX_PLAYERS] = {{0}};
    for (int c = 0; c < run->n_cards; c++) deck[c] = c;
    int starter = 0;  /* R7 */
    for (int day = 0; day < DAYS; day++) {
        int used[MAX_PLAYERS] = {0}, open = players;
        int64_t ship_value[MAX_PLAYERS] = {0}, ship_icons[MAX_PLAYERS][N_GOODS] = {{0}};
        int seat = starter;
        for (;;) {
            if (market_len == 0 && deck_len == 0) { run->ran_out_days++; break; }  /* R12 */
            int final_turn = open == 1;  /* R11 */
            for (int revealed = 0; revealed < MAX_REVEALS && deck_len > 0; revealed++) {  /* R9 */
                if (market_len > 0 && !coin(&rng)) break;
                int64_t j = below(&rng, deck_len);
                market[market_len++] = deck[j];
                deck[j] = deck[--deck_len];
            }
            /* R10: the last card, then a coin for each earlier one that fits */
            int n = market_len, pending = 1 - run->green[market[n - 1]], take[4] = {1, 0, 0, 0};
            for (int back = 2; back <= (n < 3 ? n : 3); back++) {
                int card = market[n - back];
                if ((run->green[card] || used[seat] + pending < capacity) && coin(&rng)) {
                    take[back - 1] = 1;
                    pending += 1 - run->green[card];
                }
            }
            int kept = n > 3 ? n - 3 : 0;
            for (int back = 1; back <= 3 && back <= n; back++) {
                if (!take[back - 1]) continue;
                int card = market[n - back];
                used[seat] += 1 - run->green[card];
                ship_value[seat] += run->value[card];
                if (run->good[card] >= 0) ship_icons[seat][run->good[card]] += run->icons[card];
            }
            for (int pos = kept; pos < n - 1; pos++)
                if (!take[n - 1 - pos]) market[kept++] = market[pos];
            market_len = kept;
            if (used[seat] == capacity) open--;
            if (final_turn || open == 0) break;
            do seat = (seat + 1) % players; while (used[seat] == capacity);  /* R8 */
        }
        /* R13-R19 */
        int64_t ship_pay[MAX_PLAYERS] = {0}, majority_pay[MAX_PLAYERS] = {0}, bonus_pay[MAX_PLAYERS] = {0};
        pay_places(ship_value, players, run->ship_share, 0, ship_pay);
        for (int good = 0; good < N_GOODS; good++) {
            int64_t icons[MAX_PLAYERS];
            for (int p = 0; p < players; p++) {
                icons[p] = warehouse[p][good] += ship_icons[p][good];
                if (icons[p] >= run->bonus_min) bonus_pay[p] += 10;
            }
            pay_places(icons, players, run->majority_share, 1, majority_pay);
        }
        for (int p = 0; p < players; p++) {
            florins[p] += ship_pay[p] + majority_pay[p] + bonus_pay[p];
            pay[0][p] += ship_pay[p]; pay[1][p] += majority_pay[p]; pay[2][p] += bonus_pay[p];
        }
        /* R16, R20: ships unload (their cards leave the deck for good), the market goes back */
        for (int i = 0; i < market_len; i++) deck[deck_len++] = market[i];
        market_len = 0;
        if (day < DAYS - 1) {  /* R21: the poorest starts; ties drawn in seat order */
            int64_t fewest = florins[0];
            int tied = 0;
            for (int p = 0; p < players; p++) { if (florins[p] < fewest) { fewest = florins[p]; tied = 0; } tied += florins[p] == fewest; }
            int64_t pick = tied > 1 ? below(&rng, tied) : 0;
            for (int p = 0; p < players; p++) if (florins[p] == fewest && pick-- == 0) { starter = p; break; }
        }
    }
    /* R22: the kernel's accounting */
    int64_t best = florins[0], runner_up = -(1LL << 62);
    int winners = 0;
    for (int p = 0; p < players; p++) if (florins[p] > best) best = florins[p];
    for (int p = 0; p < players; p++) { winners += florins[p] == best; if (florins[p] < best && florins[p] > runner_up) runner_up = florins[p]; }
    run->games++;
    run->win_margin += winners == 1 ? best - runner_up : 0;
    for (int a = 0; a < players; a++)
        for (int b = 0; b < players; b++)
            if (a != b) run->pairs[a][b] += florins[a] > florins[b] ? 2 : florins[a] == florins[b];
    for (int p = 0; p < players; p++) {
        int64_t *s = run->stats[p], won = florins[p] == best, share = won ? WIN_UNIT / winners : 0;
        s[GAMES]++; s[WIN60] += share; s[WIN60_SQ] += share * share;
        s[OUTRIGHT] += won && winners == 1; s[SHARED] += won && winners > 1;
        s[SCORE] += florins[p]; s[SCORE_SQ] += florins[p] * florins[p];
        s[SHIP] += pay[0][p]; s[MAJORITY] += pay[1][p]; s[BONUS] += pay[2][p];
    }
}

int main(int argc, char **argv) {
    if (argc != 5) { fprintf(stderr, "usage: card_random PLAYERS GAMES SEED DECKFILE\n"); return 2; }
    static run_t run;
    run.players = atoi(argv[1]);
    int64_t games = atoll(argv[2]);
    uint64_t seed = strtoull(argv[3], NULL, 10);
    FILE *f = fopen(argv[4], "r");
    if (run.players < 2 || run.players > MAX_PLAYERS || games < 1 || f == NULL || fscanf(f, "%d", &run.n_cards) != 1
        || run.n_cards < 1 || run.n_cards > MAX_CARDS) { fprintf(stderr, "bad arguments\n"); return 2; }
    for (int c = 0; c < run.n_cards; c++)
        if (fscanf(f, "%d %d %d %d", &run.good[c], &run.icons[c], &run.value[c], &run.green[c]) != 4) {
            fprintf(stderr, "bad deck file\n"); return 2;
        }
    fclose(f);
    run.capacity = run.players == 2 ? 7 : 5;  /* R6 */
    run.bonus_min = run.players == 2 ? 7 : 5;  /* R18 */
    share_table(SHIP_PAYOUTS[run.players], run.players, run.ship_share);
    share_table(MAJORITY_PAYOUTS, 2, run.majority_share);
    struct timespec t0, t1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    for (int64_t g = 0; g < games; g++) play_game(&run, seed, (uint64_t)g);
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    printf("cpu_seconds %.6f\n", (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
    printf("run %" PRId64 " %" PRId64 " %" PRId64 " 0\n", run.games, run.win_margin, run.ran_out_days);
    for (int p = 0; p < run.players; p++) {
        for (int k = 0; k < N_STATS; k++) printf("%s%" PRId64, k ? " " : "", run.stats[p][k]);
        printf("\n");
    }
    return 0;
}
