/* The Castles of Tuscany (T10-T37) with the canonical random player (T38-T39) at every seat, as a
 * tight C loop: the yardstick of the game's engine speed, written as classic_random.c is.
 *
 * It plays the very games the reference engine (games/tuscany/reference.py) plays: the same
 * generator (SplitMix64 keyed by seed and game index, core/rng.py), the same draws in the same
 * order (docs/rules-tuscany.md, "Randomness"), fixed seating, and prints per-seat and run totals
 * that benchmarks/bench_tuscany_c.py compares with the reference engine's over the same games.
 *
 * The rule parameters and the component set come on stdin, written by bench_tuscany_c.py (its
 * `c_input`): lines of a key word and whole numbers, so any component set can be timed.
 *
 *     tuscany_random PLAYERS GAMES SEED [per-game] < INPUT
 *         ->  "cpu_seconds S", "run ...", one "seat ..." line per seat (bench_tuscany_c.py names
 *             the columns); with per-game, first one "game INDEX ROUNDS RED..." line per game
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "splitmix64.h"

#define COLOURS 8 /* D R U L O Y W G */
enum { CASTLE, CITY, INN, AGRICULTURE, VILLAGE, MONASTERY, WAGON, QUARRY };
enum { BONUS_CARD, BONUS_STORAGE, BONUS_MARBLE, BONUS_WORKER, BONUS_YIELD, BONUS_KINDS };
enum { DRAW, TAKE, PLACE };
enum { YIELD_GREEN, YIELD_RED, YIELD_CARDS, YIELD_MARBLE, YIELD_WORKER, YIELD_HEXAGON };
#define BONUS_TILES_PER_KIND 5
#define MAX_PLAYERS 4
#define FIELDS 30 /* T9: three boards of 2 x 5 */
#define ALL_FIELDS ((1u << FIELDS) - 1)
#define ASSEMBLIES 48
#define MAX_BOARDS 20 /* of one type */
#define MAX_DISPLAY 16
#define MAX_STORAGE (1 + BONUS_TILES_PER_KIND)
#define HEX (-1)   /* a blue hexagon in storage (T26) */
#define EMPTY (-1) /* a display place without a tile */
#define PHASES 3

/* per-seat points by source (reference.py's GREEN_SOURCES, RED_SOURCES) and counts */
enum { REGIONS, COLOUR_BONUS, AGRI_POINTS, YIELD_GREEN_POINTS, STORAGE_BONUS, /* green */
       BANKING, YIELD_RED_POINTS, NO_ROOM, FINAL, N_SOURCES };                 /* red */
#define FIRST_RED BANKING
enum { TILES_PLACED, HEXAGONS_PLACED, WORKERS_GAINED, WORKERS_USED, MARBLE_GAINED, MARBLE_USED, CARDS_DRAWN,
       YIELD_DRAWN, N_COUNTS };
/* the printed per-seat columns, in bench_tuscany_c.py's SEAT_COLUMNS order */
enum { S_RED, S_RED_SQ, S_GREEN, S_SOURCES, S_COUNTS = S_SOURCES + N_SOURCES, S_CARDS_LEFT = S_COUNTS + N_COUNTS,
       S_WORKERS_LEFT, S_MARBLE_LEFT, S_STORAGE_LEFT, S_EMPTY_FIELDS, S_BONUS_TILES, S_WIN60, N_SEAT };
/* and the run columns (RUN_COLUMNS) */
enum { R_GAMES, R_ROUNDS, R_ROUNDS_SQ, R_PHASE_END, R_REACHED_LIMIT = R_PHASE_END + PHASES, R_REFRESHES, N_RUN };

static inline int uniform(uint64_t *s, int k) { return k > 1 ? (int)below(s, k) : 0; }  /* T39: no draw for one */
static void shuffle(int *items, int n, uint64_t *s) {  /* Fisher-Yates from the back */
    for (int j = n - 1; j > 0; j--) { int r = (int)below(s, j + 1), t = items[j]; items[j] = items[r]; items[r] = t; }
}
static inline int lowest(uint32_t mask) { return __builtin_ctz(mask); }
static inline int bits(uint32_t m) {  /* a popcount that plain `cc -O2` inlines (no libgcc call) */
    m -= (m >> 1) & 0x55555555u;
    m = (m & 0x33333333u) + ((m >> 2) & 0x33333333u);
    return (int)((((m + (m >> 4)) & 0x0F0F0F0Fu) * 0x01010101u) >> 24);
}
static inline int nth_bit(uint32_t mask, int n) { while (n--) mask &= mask - 1; return lowest(mask); }

/* ---- rules and components, as read from stdin */
static struct {
    int draw, start_hand, monastery_draw, region_scores[3], storage_green, no_room_red;
    int final_storage, final_marble, final_worker, final_cards, stack_size, display, round_limit;
} R;
static struct {
    int player_tiles[COLOURS], neutral_tiles[COLOURS], region_cards[COLOURS], colour_bonus[COLOURS][2];
    int *player_agri, *neutral_agri;  /* one agriculture type mask per L tile */
    int n_yield, *yield_kind, *yield_amount;  /* the yield deck, one entry per card, in the file's order */
    int slot_shift, n_boards[3], board_cells[3][MAX_BOARDS][10];  /* boards by type, in name order */
} C;
static uint32_t NEIGHBOURS[FIELDS];  /* T9: each field's neighbours, a bit mask */
typedef struct {  /* an estate laid out by one assembly (T9): colours, regions numbered by first field */
    unsigned char colour[FIELDS], region_of[FIELDS], region_size[FIELDS], regions;
    uint32_t colour_mask[COLOURS];
} estate_t;
static struct triple { int n; estate_t *legal; } *TRIPLES;  /* each triple's legal assemblies, in T38's order */
/* T9: assembly 8p + 4t0 + 2t1 + t2 puts the board of type PERMS[p][k] in slot k, turned when t_k */
static const int PERMS[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};

typedef struct {
    int *tiles, stack_pos[3];  /* T10: stack n is tiles[n * size ..], stack_pos[n] taken from its top */
    int storage[MAX_STORAGE], n_storage;
    int hand[COLOURS], workers, marble, bonus[BONUS_KINDS];
    const estate_t *estate;
    int region_left[FIELDS], region_types[FIELDS], colour_left[COLOURS];  /* fields left, agriculture shown */
    uint32_t covered, frontier;  /* frontier: the fields touching a covered one */
    int green, red, points[N_SOURCES], counts[N_COUNTS];
} player_t;

typedef struct {
    int n, phase, round, pending, phase_end[PHASES], reached_limit, refreshes;
    uint64_t rng;
    int *tile_kind, *tile_types, n_tiles, per_player;
    int *deck, deck_top, deck_len, *discards, n_discards;
    int *yield_deck, yield_top, yield_len, *yield_discards, n_yield_discards;
    int *supply, supply_top, supply_len, display[MAX_DISPLAY], shown[COLOURS];  /* shown: tiles by kind */
    uint32_t occupied;  /* the display's places holding a tile */
    int bonus_supply[BONUS_KINDS], colour_claims[COLOURS];
    player_t players[MAX_PLAYERS];
} game_t;

/* ---- T9: geometry, assemblies, regions */
static void lay_out(const int *boards, int assembly, estate_t *e) {  /* boards: one per type */
    const int *order = PERMS[assembly / 8];
    memset(e, 0, sizeof *e);
    for (int k = 0; k < 3; k++) {
        int turned = (assembly >> (2 - k)) & 1;
        const int *cells = C.board_cells[order[k]][boards[order[k]]];
        for (int c = 0; c < 10; c++) e->colour[10 * k + c] = (unsigned char)cells[turned ? 9 - c : c];
    }
    for (int f = 0; f < FIELDS; f++) e->colour_mask[e->colour[f]] |= 1u << f;
}
static int find_regions(estate_t *e) {  /* the regions, each a flood fill; returns the largest one's size */
    int largest = 0;
    uint32_t seen = 0;
    for (int start = 0; start < FIELDS; start++) {
        if (seen >> start & 1) continue;
        uint32_t region = 1u << start, frontier = region, same = e->colour_mask[e->colour[start]];
        while (frontier) {
            uint32_t grow = NEIGHBOURS[lowest(frontier)] & same & ~region;
            frontier = (frontier & (frontier - 1)) | grow;
            region |= grow;
        }
        seen |= region;
        int size = bits(region);
        if (size > largest) largest = size;
        for (uint32_t m = region; m; m &= m - 1) e->region_of[lowest(m)] = e->regions;
        e->region_size[e->regions++] = (unsigned char)size;
    }
    return largest;
}
static void precompute(void) {
    for (int f = 0; f < FIELDS; f++) {  /* (q, r) = (j + shift k, 2k + i) */
        int q = f % 5 + C.slot_shift * (f / 10), r = 2 * (f / 10) + (f % 10) / 5;
        NEIGHBOURS[f] = 0;
        for (int g = 0; g < FIELDS; g++) {
            int dq = g % 5 + C.slot_shift * (g / 10) - q, dr = 2 * (g / 10) + (g % 10) / 5 - r;
            if ((dq == 1 || dq == -1) && dr == 0) NEIGHBOURS[f] |= 1u << g;
            if (dq == 0 && (dr == 1 || dr == -1)) NEIGHBOURS[f] |= 1u << g;
            if ((dq == 1 && dr == -1) || (dq == -1 && dr == 1)) NEIGHBOURS[f] |= 1u << g;
        }
    }
    int triples = C.n_boards[0] * C.n_boards[1] * C.n_boards[2];
    TRIPLES = calloc((size_t)triples, sizeof *TRIPLES);
    for (int t = 0; t < triples; t++) {
        int boards[3] = {t / (C.n_boards[1] * C.n_boards[2]), t / C.n_boards[2] % C.n_boards[1], t % C.n_boards[2]};
        TRIPLES[t].legal = malloc(sizeof(estate_t) * ASSEMBLIES);
        for (int a = 0; a < ASSEMBLIES; a++) {
            estate_t *e = &TRIPLES[t].legal[TRIPLES[t].n];
            lay_out(boards, a, e);
            if (find_regions(e) <= 3) TRIPLES[t].n++;
        }
    }
}

/* ---- cards (T13, T30) and pieces */
static inline void score(player_t *p, int points, int source) {
    p->points[source] += points;
    if (source < FIRST_RED) p->green += points; else p->red += points;
}
static void draw_region(game_t *g, player_t *p, int count) {  /* T13: an empty deck is the discards shuffled */
    for (int i = 0; i < count; i++) {
        if (g->deck_top == g->deck_len) {
            if (g->n_discards == 0) return;
            memcpy(g->deck, g->discards, sizeof(int) * (size_t)g->n_discards);
            g->deck_top = 0; g->deck_len = g->n_discards; g->n_discards = 0;
            shuffle(g->deck, g->deck_len, &g->rng);
        }
        p->hand[g->deck[g->deck_top++]]++;
        p->counts[CARDS_DRAWN]++;
    }
}
static void gain_hexagon(player_t *p) {  /* T26 */
    if (p->n_storage < 1 + p->bonus[BONUS_STORAGE]) p->storage[p->n_storage++] = HEX;
    else score(p, R.no_room_red, NO_ROOM);
}
static inline void gain_marble(player_t *p, int n) { p->marble += n; p->counts[MARBLE_GAINED] += n; }
static inline void gain_workers(player_t *p, int n) { p->workers += n; p->counts[WORKERS_GAINED] += n; }
static void draw_yield(game_t *g, player_t *p) {  /* T6, T30 */
    if (g->yield_top == g->yield_len) {
        memcpy(g->yield_deck, g->yield_discards, sizeof(int) * (size_t)g->n_yield_discards);
        g->yield_top = 0; g->yield_len = g->n_yield_discards; g->n_yield_discards = 0;
        shuffle(g->yield_deck, g->yield_len, &g->rng);
    }
    int card = g->yield_deck[g->yield_top++], amount = C.yield_amount[card];
    g->yield_discards[g->n_yield_discards++] = card;
    p->counts[YIELD_DRAWN]++;
    switch (C.yield_kind[card]) {
    case YIELD_GREEN: score(p, amount, YIELD_GREEN_POINTS); break;
    case YIELD_RED: score(p, amount, YIELD_RED_POINTS); break;
    case YIELD_CARDS: draw_region(g, p, amount); break;
    case YIELD_MARBLE: gain_marble(p, amount); break;
    case YIELD_WORKER: gain_workers(p, amount); break;
    default: for (int i = 0; i < amount; i++) gain_hexagon(p);
    }
}
static void offer_bonus(game_t *g, player_t *p) {  /* T12, T25: a uniform kind still in supply */
    int kinds[BONUS_KINDS], k = 0;
    for (int b = 0; b < BONUS_KINDS; b++) if (g->bonus_supply[b] > 0) kinds[k++] = b;
    if (k == 0) return;
    int kind = kinds[uniform(&g->rng, k)];
    g->bonus_supply[kind]--;
    p->bonus[kind]++;
    if (kind == BONUS_STORAGE) score(p, R.storage_green, STORAGE_BONUS);
}

/* ---- the display (T14-T16) */
static inline int next_supply(game_t *g) { return g->supply_top < g->supply_len ? g->supply[g->supply_top++] : EMPTY; }
static int next_supply_or_stack(game_t *g, player_t *p) {  /* T14: the top of the leftmost non-empty stack */
    for (int n = 0; n < 3; n++)
        if (p->stack_pos[n] < R.stack_size) {
            int tile = p->tiles[n * R.stack_size + p->stack_pos[n]++];
            if (p->stack_pos[n] == R.stack_size && n + 1 == g->phase) g->pending = 1;  /* T15 */
            return tile;
        }
    return next_supply(g);
}
static inline void show(game_t *g, int place, int tile) {  /* the display's place gets a tile, or EMPTY */
    if (g->display[place] != EMPTY) { g->shown[g->tile_kind[g->display[place]]]--; g->occupied &= ~(1u << place); }
    g->display[place] = tile;
    if (tile != EMPTY) { g->shown[g->tile_kind[tile]]++; g->occupied |= 1u << place; }
}
#define ANY_KIND (-1)
/* T16: repeat while five of a colour show, each time one refresh. `added`: the kind of the one tile
 * that just came (only that kind can show five now: none did before), or ANY_KIND */
static void five_of_a_colour(game_t *g, int added) {
    if (added != ANY_KIND && g->shown[added] < 5) return;
    for (;;) {
        int kind = 0;
        while (kind < COLOURS && g->shown[kind] < 5) kind++;
        if (kind == COLOURS) return;
        for (int i = 0; i < R.display; i++)
            if (g->display[i] != EMPTY && g->tile_kind[g->display[i]] == kind) show(g, i, next_supply(g));
        g->refreshes++;
    }
}
static void refill(game_t *g, player_t *p, int place) {  /* T14: the leftmost non-empty stack, else the supply */
    int tile = next_supply_or_stack(g, p);
    show(g, place, tile);
    if (tile != EMPTY) five_of_a_colour(g, g->tile_kind[tile]);
}

/* ---- placing (T18-T31) */
static inline uint32_t legal_fields(const player_t *p, int kind) {  /* T19; kind HEX: any colour */
    return (kind == HEX ? ALL_FIELDS : p->estate->colour_mask[kind]) & ~p->covered & p->frontier;
}
static uint32_t payable_fields(const player_t *p) {  /* T18: fields of the colours two units can pay */
    int pairs = 0;
    uint32_t mask = 0;
    for (int c = 0; c < COLOURS; c++) pairs += p->hand[c] >> 1;
    if (p->workers + pairs >= 2) return ALL_FIELDS;  /* two units for any colour */
    for (int c = 0; c < COLOURS; c++)
        if (p->hand[c] + p->workers + pairs - p->hand[c] / 2 >= 2) mask |= p->estate->colour_mask[c];
    return mask;
}
static inline int item_kind(const game_t *g, int item) { return item == HEX ? HEX : g->tile_kind[item]; }
static void put(game_t *g, player_t *p, int item, int field);

static void castle(game_t *g, player_t *p) {  /* T24: a uniform (display tile, legal field) pair */
    int k = 0;
    for (int i = 0; i < R.display; i++)
        if (g->display[i] != EMPTY) k += bits(legal_fields(p, g->tile_kind[g->display[i]]));
    if (k == 0) return;
    int choice = uniform(&g->rng, k);
    for (int i = 0; i < R.display; i++) {
        if (g->display[i] == EMPTY) continue;
        uint32_t fields = legal_fields(p, g->tile_kind[g->display[i]]);
        if (choice >= bits(fields)) { choice -= bits(fields); continue; }
        int tile = g->display[i];
        show(g, i, EMPTY);
        put(g, p, tile, nth_bit(fields, choice));
        refill(g, p, i);
        return;
    }
}
static void put(game_t *g, player_t *p, int item, int field) {  /* T20: region, colour bonus, effect */
    int colour = p->estate->colour[field], region = p->estate->region_of[field];
    p->covered |= 1u << field;
    p->frontier |= NEIGHBOURS[field];
    p->counts[item == HEX ? HEXAGONS_PLACED : TILES_PLACED]++;
    if (--p->region_left[region] == 0) score(p, R.region_scores[p->estate->region_size[region] - 1], REGIONS);  /* T21 */
    if (--p->colour_left[colour] == 0) {  /* T22 */
        if (g->colour_claims[colour] < 2) score(p, C.colour_bonus[colour][g->colour_claims[colour]], COLOUR_BONUS);
        g->colour_claims[colour]++;
    }
    switch (colour) {  /* T23-T31 */
    case CASTLE: castle(g, p); break;
    case CITY: offer_bonus(g, p); break;
    case INN: gain_hexagon(p); break;
    case AGRICULTURE:
        if (item == HEX) score(p, 1, AGRI_POINTS);
        else {
            score(p, bits((uint32_t)(g->tile_types[item] & ~p->region_types[region])), AGRI_POINTS);
            p->region_types[region] |= g->tile_types[item];
        }
        break;
    case VILLAGE: gain_workers(p, 1 + p->bonus[BONUS_WORKER]); break;
    case MONASTERY: draw_region(g, p, R.monastery_draw); break;
    case WAGON: for (int i = 0; i <= p->bonus[BONUS_YIELD]; i++) draw_yield(g, p); break;
    default: gain_marble(p, 1 + p->bonus[BONUS_MARBLE]);
    }
}
static void pay(game_t *g, player_t *p, int colour) {  /* T39: matching cards, workers, then pairs */
    int cards = p->hand[colour] < 2 ? p->hand[colour] : 2, workers = p->workers < 2 - cards ? p->workers : 2 - cards;
    int pairs[2], n_pairs = 2 - cards - workers, left[COLOURS];
    memcpy(left, p->hand, sizeof left);
    for (int i = 0; i < n_pairs; i++) {  /* the other colour holding most cards; ties: the first */
        int best = -1;
        for (int c = 0; c < COLOURS; c++)
            if (c != colour && left[c] >= 2 && (best < 0 || left[c] > left[best])) best = c;
        left[best] -= 2;
        pairs[i] = best;
    }
    if (n_pairs == 2 && pairs[0] > pairs[1]) { int t = pairs[0]; pairs[0] = pairs[1]; pairs[1] = t; }
    p->hand[colour] -= cards;
    for (int i = 0; i < cards; i++) g->discards[g->n_discards++] = colour;
    for (int i = 0; i < n_pairs; i++) {
        p->hand[pairs[i]] -= 2;
        g->discards[g->n_discards++] = pairs[i];
        g->discards[g->n_discards++] = pairs[i];
    }
    p->workers -= workers;
    p->counts[WORKERS_USED] += workers;
}

/* ---- a turn (T13, T14, T18, T32) */
static void take(game_t *g, player_t *p) {  /* T14: a uniform display tile; storage full: a uniform discard */
    int place = nth_bit(g->occupied, uniform(&g->rng, bits(g->occupied)));
    if (p->n_storage >= 1 + p->bonus[BONUS_STORAGE]) {
        int d = uniform(&g->rng, p->n_storage);
        memmove(p->storage + d, p->storage + d + 1, sizeof(int) * (size_t)(p->n_storage - d - 1));
        p->n_storage--;
    }
    p->storage[p->n_storage++] = g->display[place];
    show(g, place, EMPTY);
    refill(g, p, place);
}
static void action(game_t *g, player_t *p) {  /* T39: a uniform legal action */
    int actions[3] = {DRAW}, k = 1, placements = 0;
    uint32_t payable = p->n_storage ? payable_fields(p) : 0;
    if (g->occupied) actions[k++] = TAKE;
    for (int s = 0; s < p->n_storage; s++) placements += bits(legal_fields(p, item_kind(g, p->storage[s])) & payable);
    if (placements) actions[k++] = PLACE;
    switch (actions[uniform(&g->rng, k)]) {
    case DRAW: draw_region(g, p, R.draw + p->bonus[BONUS_CARD]); break;
    case TAKE: take(g, p); break;
    default: {  /* T18: a uniform (stored item, payable legal field) pair */
        int choice = uniform(&g->rng, placements);
        for (int s = 0;; s++) {
            uint32_t fields = legal_fields(p, item_kind(g, p->storage[s])) & payable;
            if (choice >= bits(fields)) { choice -= bits(fields); continue; }
            int field = nth_bit(fields, choice), item = p->storage[s];
            pay(g, p, p->estate->colour[field]);
            memmove(p->storage + s, p->storage + s + 1, sizeof(int) * (size_t)(p->n_storage - s - 1));
            p->n_storage--;
            put(g, p, item, field);
            break;
        }
    }
    }
}
static void turn(game_t *g, player_t *p) {  /* T32: a marble, with probability 1/2, for one more action */
    action(g, p);
    if (p->marble > 0 && coin(&g->rng)) { p->marble--; p->counts[MARBLE_USED]++; action(g, p); }
}

/* ---- a game (T10-T12, T15, T34-T37) */
static void setup(game_t *g, int n, uint64_t seed, uint64_t index) {
    uint64_t *rng = &g->rng;
    g->rng = mix64(mix64(seed) ^ index);
    g->n = n; g->phase = 1; g->round = g->pending = g->reached_limit = g->refreshes = 0;
    memset(g->phase_end, 0, sizeof g->phase_end);
    memset(g->colour_claims, 0, sizeof g->colour_claims);
    for (int b = 0; b < BONUS_KINDS; b++) g->bonus_supply[b] = BONUS_TILES_PER_KIND;
    g->deck_len = 0;  /* T10: the region cards by colour, shuffled */
    for (int c = 0; c < COLOURS; c++) for (int i = 0; i < C.region_cards[c]; i++) g->deck[g->deck_len++] = c;
    g->deck_top = g->n_discards = 0;
    shuffle(g->deck, g->deck_len, rng);
    for (int i = 0; i < C.n_yield; i++) g->yield_deck[i] = i;
    g->yield_top = g->n_yield_discards = 0;
    g->yield_len = C.n_yield;
    shuffle(g->yield_deck, g->yield_len, rng);
    g->supply_len = g->n_tiles - n * g->per_player;  /* the neutral tiles follow the players' */
    for (int i = 0; i < g->supply_len; i++) g->supply[i] = n * g->per_player + i;
    g->supply_top = 0;
    shuffle(g->supply, g->supply_len, rng);
    memset(g->shown, 0, sizeof g->shown);
    g->occupied = 0;
    for (int i = 0; i < R.display; i++) { g->display[i] = EMPTY; show(g, i, next_supply(g)); }
    five_of_a_colour(g, ANY_KIND);
    for (int s = 0; s < n; s++) {
        player_t *p = &g->players[s];
        for (int i = 0; i < g->per_player; i++) p->tiles[i] = s * g->per_player + i;
        shuffle(p->tiles, g->per_player, rng);
        memset(p->stack_pos, 0, sizeof p->stack_pos);
        p->n_storage = p->workers = p->marble = p->green = p->red = 0;
        memset(p->hand, 0, sizeof p->hand);
        memset(p->bonus, 0, sizeof p->bonus);
        memset(p->points, 0, sizeof p->points);
        memset(p->counts, 0, sizeof p->counts);
    }
    for (int s = 0; s < n; s++) draw_region(g, &g->players[s], R.start_hand);
    int dealt[3][MAX_BOARDS];  /* T12: the boards of each type shuffled in name order, seat s gets item s */
    for (int t = 0; t < 3; t++) {
        for (int b = 0; b < C.n_boards[t]; b++) dealt[t][b] = b;
        shuffle(dealt[t], C.n_boards[t], rng);
    }
    for (int s = 0; s < n; s++) {  /* T38: a uniform legal assembly, a uniform D field for the castle */
        player_t *p = &g->players[s];
        int boards[3] = {dealt[0][s], dealt[1][s], dealt[2][s]};
        const struct triple *triple = &TRIPLES[(boards[0] * C.n_boards[1] + boards[1]) * C.n_boards[2] + boards[2]];
        const estate_t *e = p->estate = &triple->legal[uniform(rng, triple->n)];
        for (int r = 0; r < e->regions; r++) { p->region_left[r] = e->region_size[r]; p->region_types[r] = 0; }
        for (int c = 0; c < COLOURS; c++) p->colour_left[c] = bits(e->colour_mask[c]);
        int field = nth_bit(e->colour_mask[CASTLE], uniform(rng, bits(e->colour_mask[CASTLE])));
        p->covered = 1u << field;  /* the starting castle: no effect, no points */
        p->frontier = NEIGHBOURS[field];
        p->colour_left[CASTLE]--;
        p->region_left[e->region_of[field]]--;
    }
    for (int s = 0; s < n; s++) offer_bonus(g, &g->players[s]);
}
static void bank(game_t *g) { for (int s = 0; s < g->n; s++) score(&g->players[s], g->players[s].green, BANKING); }
static int hand_size(const player_t *p) { int n = 0; for (int c = 0; c < COLOURS; c++) n += p->hand[c]; return n; }
static void finish(game_t *g) {  /* T35 */
    for (int s = 0; s < g->n; s++) {
        player_t *p = &g->players[s];
        int cards = R.final_cards ? hand_size(p) / R.final_cards : 0;
        score(p, R.final_storage * p->n_storage + R.final_marble * p->marble + R.final_worker * p->workers + cards,
              FINAL);
    }
}
static void play(game_t *g) {
    for (;;) {
        g->round++;
        for (int s = 0; s < g->n; s++) turn(g, &g->players[s]);
        if (g->pending) {  /* T15: the round is finished, then the phase is scored */
            g->pending = 0;
            g->phase_end[g->phase - 1] = g->round;
            bank(g);
            if (g->phase == PHASES) { finish(g); return; }
            g->phase++;
        }
        if (g->round >= R.round_limit) { g->reached_limit = 1; bank(g); finish(g); return; }  /* T37 */
    }
}
/* T36: most red; ties: most empty fields, fewest green, fewest cards; then shared, 60 / k each */
static void account(const game_t *g, int64_t seat[][N_SEAT], int64_t *run) {
    int64_t key[MAX_PLAYERS][4], winners = 0, best = 0;
    for (int s = 0; s < g->n; s++) {
        const player_t *p = &g->players[s];
        key[s][0] = p->red; key[s][1] = FIELDS - bits(p->covered); key[s][2] = -p->green; key[s][3] = -hand_size(p);
        if (s > 0 && memcmp(key[s], key[best], sizeof key[s]) != 0) {
            int k = 0;
            while (key[s][k] == key[best][k]) k++;
            if (key[s][k] > key[best][k]) best = s;
        }
    }
    for (int s = 0; s < g->n; s++) winners += memcmp(key[s], key[best], sizeof key[s]) == 0;
    for (int s = 0; s < g->n; s++) {
        const player_t *p = &g->players[s];
        int64_t *t = seat[s];
        t[S_RED] += p->red; t[S_RED_SQ] += (int64_t)p->red * p->red; t[S_GREEN] += p->green;
        for (int k = 0; k < N_SOURCES; k++) t[S_SOURCES + k] += p->points[k];
        for (int k = 0; k < N_COUNTS; k++) t[S_COUNTS + k] += p->counts[k];
        t[S_CARDS_LEFT] += hand_size(p); t[S_WORKERS_LEFT] += p->workers; t[S_MARBLE_LEFT] += p->marble;
        t[S_STORAGE_LEFT] += p->n_storage; t[S_EMPTY_FIELDS] += FIELDS - bits(p->covered);
        for (int b = 0; b < BONUS_KINDS; b++) t[S_BONUS_TILES] += p->bonus[b];
        t[S_WIN60] += memcmp(key[s], key[best], sizeof key[s]) == 0 ? 60 / winners : 0;
    }
    run[R_GAMES]++; run[R_ROUNDS] += g->round; run[R_ROUNDS_SQ] += (int64_t)g->round * g->round;
    for (int k = 0; k < PHASES; k++) run[R_PHASE_END + k] += g->phase_end[k];
    run[R_REACHED_LIMIT] += g->reached_limit; run[R_REFRESHES] += g->refreshes;
}

/* ---- input: a key word, then its whole numbers */
static void fail(const char *what) { fprintf(stderr, "tuscany_random: bad input at %s\n", what); exit(2); }
static void expect(const char *key) {
    char word[32];
    if (scanf("%31s", word) != 1 || strcmp(word, key) != 0) fail(key);
}
static int number(const char *key, int low, int high) {
    int v;
    if (scanf("%d", &v) != 1 || v < low || v > high) fail(key);
    return v;
}
static int *numbers(const char *key, int n, int low, int high) {
    int *v = malloc(sizeof(int) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) v[i] = number(key, low, high);
    return v;
}
static void read_input(void) {
    expect("tuscany-c-input"); number("version", 1, 1);
    expect("rules");
    R.draw = number("draw", 0, 1000); R.start_hand = number("start_hand", 0, 1000);
    R.monastery_draw = number("monastery_draw", 0, 1000);
    for (int i = 0; i < 3; i++) R.region_scores[i] = number("region_scores", 0, 1000);
    R.storage_green = number("storage_green", 0, 1000); R.no_room_red = number("no_room_red", 0, 1000);
    R.final_storage = number("final_storage", 0, 1000); R.final_marble = number("final_marble", 0, 1000);
    R.final_worker = number("final_worker", 0, 1000); R.final_cards = number("final_cards", 0, 1000);
    R.stack_size = number("stack_size", 1, 1000); R.display = number("display", 1, MAX_DISPLAY);
    R.round_limit = number("round_limit", 1, 1000000);
    expect("player_tiles"); for (int c = 0; c < COLOURS; c++) C.player_tiles[c] = number("player_tiles", 0, 1000);
    expect("player_agriculture"); C.player_agri = numbers("player_agriculture", C.player_tiles[AGRICULTURE], 0, 15);
    expect("neutral_tiles"); for (int c = 0; c < COLOURS; c++) C.neutral_tiles[c] = number("neutral_tiles", 0, 1000);
    expect("neutral_agriculture");
    C.neutral_agri = numbers("neutral_agriculture", C.neutral_tiles[AGRICULTURE], 0, 15);
    expect("region_cards"); for (int c = 0; c < COLOURS; c++) C.region_cards[c] = number("region_cards", 0, 100000);
    expect("yield_cards");  /* entries of count, kind, amount: one card per count */
    for (int e = number("yield_cards", 1, 1000); e > 0; e--) {
        int count = number("yield count", 1, 1000), kind = number("yield kind", 0, YIELD_HEXAGON);
        int amount = number("yield amount", 1, 1000);
        C.yield_kind = realloc(C.yield_kind, sizeof(int) * (size_t)(C.n_yield + count));
        C.yield_amount = realloc(C.yield_amount, sizeof(int) * (size_t)(C.n_yield + count));
        for (int i = 0; i < count; i++) { C.yield_kind[C.n_yield] = kind; C.yield_amount[C.n_yield++] = amount; }
    }
    expect("colour_bonus");
    for (int c = 0; c < COLOURS; c++) for (int i = 0; i < 2; i++) C.colour_bonus[c][i] = number("colour_bonus", 0, 1000);
    expect("slot_shift"); C.slot_shift = number("slot_shift", -5, 4);
    expect("boards");
    for (int b = number("boards", 12, 3 * MAX_BOARDS); b > 0; b--) {
        int type = number("board type", 0, 2);
        if (C.n_boards[type] == MAX_BOARDS) fail("boards");
        for (int f = 0; f < 10; f++) C.board_cells[type][C.n_boards[type]][f] = number("board cells", 0, COLOURS - 1);
        C.n_boards[type]++;
    }
    expect("end");
}

static void new_game(game_t *g, int players) {  /* the tiles (T1, T2, T8) and room for every pile */
    int total = 0, per_player = 0, cards = 0;
    for (int c = 0; c < COLOURS; c++) { per_player += C.player_tiles[c]; cards += C.region_cards[c]; }
    total = players * per_player;
    for (int c = 0; c < COLOURS; c++) total += C.neutral_tiles[c];
    g->tile_kind = malloc(sizeof(int) * (size_t)total); g->tile_types = malloc(sizeof(int) * (size_t)total);
    g->n_tiles = 0; g->per_player = per_player;
    for (int owner = 0; owner <= players; owner++) {  /* seat 0's tiles, ..., then the neutral ones */
        const int *counts = owner < players ? C.player_tiles : C.neutral_tiles;
        const int *agri = owner < players ? C.player_agri : C.neutral_agri;
        for (int kind = 0; kind < COLOURS; kind++)
            for (int k = 0; k < counts[kind]; k++) {
                g->tile_kind[g->n_tiles] = kind;
                g->tile_types[g->n_tiles++] = kind == AGRICULTURE ? agri[k] : 0;
            }
    }
    g->deck = malloc(sizeof(int) * (size_t)(cards + 1)); g->discards = malloc(sizeof(int) * (size_t)(cards + 1));
    g->yield_deck = malloc(sizeof(int) * (size_t)C.n_yield); g->yield_discards = malloc(sizeof(int) * (size_t)C.n_yield);
    g->supply = malloc(sizeof(int) * (size_t)(total + 1));
    for (int s = 0; s < players; s++) g->players[s].tiles = malloc(sizeof(int) * (size_t)(per_player + 1));
}

int main(int argc, char **argv) {
    if (argc < 4 || argc > 5 || (argc == 5 && strcmp(argv[4], "per-game") != 0)) {
        fprintf(stderr, "usage: tuscany_random PLAYERS GAMES SEED [per-game] < INPUT\n");
        return 2;
    }
    int players = atoi(argv[1]), per_game = argc == 5;
    int64_t games = atoll(argv[2]);
    uint64_t seed = strtoull(argv[3], NULL, 10);
    if (players < 2 || players > MAX_PLAYERS || games < 1) {
        fprintf(stderr, "tuscany_random: PLAYERS must be 2-4 and GAMES at least 1\n");
        return 2;
    }
    read_input();
    precompute();
    static game_t game;
    static int64_t seat[MAX_PLAYERS][N_SEAT], run[N_RUN];
    new_game(&game, players);
    if (3 * R.stack_size > game.per_player) fail("stack_size");
    struct timespec t0, t1;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t0);
    for (int64_t i = 0; i < games; i++) {
        setup(&game, players, seed, (uint64_t)i);
        play(&game);
        account(&game, seat, run);
        if (per_game) {
            printf("game %" PRId64 " %d", i, game.round);
            for (int s = 0; s < players; s++) printf(" %d", game.players[s].red);
            printf("\n");
        }
    }
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t1);
    printf("cpu_seconds %.6f\n", (double)(t1.tv_sec - t0.tv_sec) + 1e-9 * (double)(t1.tv_nsec - t0.tv_nsec));
    printf("run");
    for (int k = 0; k < N_RUN; k++) printf(" %" PRId64, run[k]);
    printf("\n");
    for (int s = 0; s < players; s++) {
        printf("seat");
        for (int k = 0; k < N_SEAT; k++) printf(" %" PRId64, seat[s][k]);
        printf("\n");
    }
    return 0;
}
