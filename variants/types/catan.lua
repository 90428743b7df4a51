---@meta
-- LuaLS type annotations of the catan-engine script API, generated from docs/api.md
-- and the declaration table of docs/modding.md by `catan stubs`. Do not edit: change
-- the docs, then run `catan stubs > variants/types/catan.lua` (tests/stubs.rs checks it).

---@alias CatanSequencePoint "setup"|"after_action"|"turn_begin"|"turn_end"|"seven"|"free_roads"|string
---@alias CatanFilterPoint "to_act"|"victory_points"|"describe"|"welcome"|"board_legend"|"action_note"|"points_by_source"|"tallies"|"card_text"|"price_text"|"cost"|"production"|"discard_count"|"trade_ratio"|"robber_targets"|"steal_targets"|"evaluate"|"features"|"metrics"|"development_deck"|"starting_pieces"|string
---@alias CatanEvent "rolled"|"built"|"bought"|"produced"|"knights_changed"|"discarded"|"robber_moved"|"stole"|"played_development"|"traded"|"longest_road_changed"|"largest_army_changed"|"turn_ended"|"game_won"|string

-- sequence `setup`: —; the engine, once when a game starts
-- sequence `after_action`: seat, action_name; the engine, after every successful action (base: base.victory checks for a winner; Rivals: rivals.advantages, declared when_changed)
-- sequence `turn_begin`: seat; base, when a seat's turn begins: turn 1 once set-up is over, then when the next seat gets the dice (after end, or after the 5-6 player game's Special Building Phases); with paired turns also when player 2's action phase begins (var paired is set then)
-- sequence `turn_end`: seat; base, first thing in the end action (before cards bought this turn become playable); with paired turns, for player 1 and player 2 each
-- sequence `seven`: seat, after (the phase to go back to once the robber moved); base's roll on a 7; base.seven works out the discards and enters phase discard or robber. A variant that must let a player decide first wraps base.seven, keeps the original and calls it once the decision is made (helpers.lua: Sean)
-- sequence `free_roads`: seat, n; base's Road Building (n = 2); base.free_roads enters phase road_building for up to n roads placed free (fewer if the supply or the board has fewer), then returns to the phase it interrupted. Any variant may grant free roads with g:run("free_roads", seat, n)
-- filter `to_act`: seat (g:current()); —; the engine: who acts next; must return 1..g:players()
-- filter `victory_points`: points (starts at 0); seat, hidden; the engine for scores and views (hidden = true counts what only the owner knows, false is the public score); base for the win check
-- filter `describe`: info table (starts empty); seat; the engine: extra per-player facts shown in views; a string summary is the line show players prints after the points (base builds it in base.summary, priority 100, from resource_cards, development_cards, army/army_name or knights, road_length and the special cards); a string marker (base: "player 1", "player 2" with paired turns) is shown before it, by the points; a string holdings is a line show hand prints under the seat's cards (rivals.lua: the resources stored in the principality, with their total)
-- filter `welcome`: nil; ; the REPL's welcome: a note for the players (base: that the fixed starting pieces are used, and --option starting_pieces=false for the set-up rounds)
-- filter `board_legend`: nil; ; the REPL's show board: a legend printed under the board (rivals.lua: what the marks beside a slot's label mean)
-- filter `action_note`: nil; seat, action; the REPL's help and legal: a note on a kind of action for the seat, such as what it costs now after every cost filter (base: costs brick, lumber, or free now)
-- filter `points_by_source`: a list, fresh (starts empty), of { source, points } pairs: { { "settlements", 3 }, { "Longest Road", 2 } }; seat; the REPL, at the game's end: where each seat's points come from, in the players' words (read-only). Points the list leaves out show as other. base.points_by_source: settlements, cities, Longest Road, Largest Army, victory point cards
-- filter `tallies`: a list, fresh (starts empty), of { title, { { label, count }, ... } }; —; the REPL, at the game's end: what the variant counted over the game, each drawn as a histogram (read-only). base.dice_rolled: the sums the dice rolled, 2 to 12 (base counts each sum in var rolls, a list of 11 counts for the sums 2 to 12)
-- filter `card_text`: nil; kind; the engine, for the REPL's help <card> / show card <card>: the rules text of a kind of card (rivals.lua gives every card's cost, points, effect and card index clarification)
-- filter `price_text`: nil; cards (a price); the engine, for the refusal of an action whose declared cost the actor cannot pay: "you cannot pay " and this text (base: brick lumber, in the rulebook's order; without a hook, each kind with its count)
-- filter `cost`: cards table, a fresh one: { brick = 1, lumber = 1 }; what, seat (what: road, settlement, city, development); base, when listing and paying. The prices declared with prices { ... } are the first hook, base.cost (priority -1000), which adds them to the value it gets: any script asks a price, with every variant's changes, by g:filter("cost", {}, what, seat), or read-only and cheaper by g:price(what, seat). A hook here makes the engine leave the check of a declared cost to the prelude, which asks this filter
-- filter `production`: cards one piece yields: its declared yields (base: 1 for a settlement, 2 for a city); seat, piece, hex; g:produce, for each piece on a producing hex, when a variant hooks it (without a hook the engine counts alone)
-- filter `discard_count`: cards to discard on a 7 (half, rounded down, over the limit; else 0); seat, hand_size; base
-- filter `trade_ratio`: the best maritime ratio (4, or 3 or 2 from harbors); seat, resource; base, for the resource given
-- filter `robber_targets`: list of hexes the robber may go to; mover (the seat moving the robber); base, on a 7 or a knight
-- filter `steal_targets`: list of seats to steal from; thief, hex; base, after the robber moved
-- filter `evaluate`: how good the position is for seat, in victory points' units (starts at 0); seat, scratch, points (scratch: one table shared by the seats of one evaluation, for facts worth computing once: a memo only, since the engine keeps each seat's evaluation apart, as g:cached's "recorded" keeps a value, and the seats before may not have run: base keeps there, by seat, what a seat's hand nears, which its named features and its evaluation both read; points: the seat's victory points, hidden ones included, as the victory_points filter counts them, counted once for the bots beside its evaluation); the engine, for the bots' search (read-only, like listing). Without any hook the bots use victory_points (hidden included). Must return a number; base.evaluate, rivals.evaluate (see [bots.md](bots.md))
-- filter `features`: named numbers of seat's position for a tuned evaluation, a fresh table (starts empty): { knights_to_army = 1, ... }; seat, scratch (as evaluate's); the engine, for the bots' tuned evaluations and catan tune (read-only): each name becomes a term named.NAME beside the engine's generic features, weighed by the stack's weights file (see [bots.md](bots.md#tuned-evaluations)). Numbers only
-- filter `metrics`: a table of metrics, name to number (starts empty); —; the engine, once at the end of each game catan sim plays (read-only, like listing), for its per-game rows and report: set m.name = number and return m. Each value must be a finite number and no name may begin actions. (the engine's own counts of each kind of action, which every game gets); anything else is a script error naming the hook. base.metrics: longest_road (the longest road on the board at the end), largest_army (the most knights played by one seat); rivals.metrics: principality_cards (the most cards in play in one principality)
-- filter `development_deck`: how many of each development card the deck holds, a fresh table: { knight = 14, victory_point = 5, road_building = 2, year_of_plenty = 2, monopoly = 2 } (5-6 players: 20, 5, 3, 3, 3); —; base's base.supply, once in set-up, before it shuffles the deck: a new card joins with a filter (see [modding.md](modding.md#bounty-a-new-development-card); catan.may_play, catan.use_card and catan.PLAY_PHASES are base's exports for its action)
-- filter `starting_pieces`: fixed starting pieces by colour, { red = { settlements = { 37, 26 }, roads = { "31-37", "21-26" } }, ... } (the second settlement pays the starting resources), or nil for the two set-up rounds; —; base's base.start, once, after the board is built (family supplies its Starting Set-up here)
-- event `rolled`: { seat, dice = { a, b }, sum }; end of the roll action, after production (or after a 7's discard/robber phase is set)
-- event `built`: { seat, piece, site }; a road, settlement or city was placed (also in set-up)
-- event `bought`: { seat, card }; a development card was bought: card is the kind drawn, now in the buyer's dev_new (hooks are the referee: the event is recorded by name only)
-- event `produced`: { seat, roll, got }; production of a roll other than 7 is resolved: got[p] is the cards seat p received ({ ore = 2 }), nil for a seat that received nothing; seat is the roller. Emitted before rolled
-- event `knights_changed`: { seat }; emitted by a variant that took face-up knights away from seat (helpers.lua: Vincent); base's base.largest_army hands Largest Army to whoever now has more knights than the holder (classic's replacement counts Soldiers)
-- event `discarded`: { seat, cards }; a player discarded on a 7
-- event `robber_moved`: { seat, hex }; the robber moved
-- event `stole`: { seat, victim }; a steal (the victim may have had no card)
-- event `played_development`: { seat, card }; a development card was played
-- event `traded`: { seat, with, give, get }; a trade: with is "bank" or the partner's seat; cards from seat's side
-- event `longest_road_changed`: { from, to }; the Longest Road card changed hands (nil = nobody)
-- event `largest_army_changed`: { from, to }; the Largest Army card changed hands
-- event `turn_ended`: { seat }; after the end action passed the turn (with 5-6 players: once the Special Building Phases are over, or when player 2's action phase begins and when it ends)
-- event `game_won`: { seat }; a player reached the target (from after_action)

---@class CatanLayout
---@field hexes { q: integer, r: integer, terrain: string, number?: integer }[]
---@field harbors? { hex: integer, side: string, ratio: integer, resource?: string }[]

---The game, as every hook and action receives it (docs/api.md).
---@class G
local G = {}

---number of seats
---Returns: integer
---@return integer
function G:players() end

---whose turn it is
---Returns: seat
---@return integer
function G:current() end

---(changes the state) 
---Returns: —
---@param p integer
function G:set_current(p) end

---starts as "setup"; the phase names are the variant's (base: setup, roll, main, trade, build, discard, robber, steal, road_building, offer, and with 5-6 players special_building)
---Returns: string
---@return string
function G:phase() end

---(changes the state) any string
---Returns: —
---@param name string
function G:set_phase(name) end

---starts at 0; base sets 1 when play begins
---Returns: integer
---@return integer
function G:turn() end

---(changes the state) n >= 0
---Returns: —
---@param n integer
function G:set_turn(n) end

---
---Returns: seat or nil
---@return integer?
function G:winner() end

---(changes the state) ends the game: every later action is refused ("the game is over")
---Returns: —
---@param p integer
function G:declare_winner(p) end

---the option's value (default or as set); error "no option named 'x'"
---Returns: boolean, integer or string
---@param name string
---@return boolean
function G:option(name) end

---the seat's colour ("red")
---Returns: string
---@param p integer
---@return string
function G:color(p) end

---the seat's name (the colour unless changed)
---Returns: string
---@param p integer
---@return string
function G:name(p) end

---(changes the state) sets both colour and name
---Returns: —
---@param p integer
---@param color string
function G:set_color(p, color) end

---a game variable; with field (optional), only that entry of it: g:get("queue", 1) is the first of a stored list, g:get("offer", "from") one field of a stored table, read without copying the rest
---Returns: value or nil
---@param key string
---@param field string
---@return any
function G:get(key, field) end

---(changes the state) nil deletes the key; plain data only (no functions, nesting up to 64 levels); all stored values of a game together at most 16 MiB
---Returns: —
---@param key string
---@param value any
function G:set(key, value) end

---(changes the state) one entry of a stored table, as t[field] = value on it and a g:set of the whole would leave it (a missing key starts an empty table; a list stays a list while its keys are 1..n), without copying the table to Lua and back: a tally is g:set_entry("rolls", sum, (g:get("rolls", sum) or 0) + 1). Charged for the entry, not the table, unless the table turns from a list into a map or back (then by its entries, as docs/modding.md's table of charges says)
---Returns: —
---@param key string
---@param field string
---@param value any
function G:set_entry(key, field, value) end

---(changes the state) table.insert on a stored list: value at position pos (default: after the last), the entries from there on moving up; a missing key starts a list. One entry in, without copying the list to Lua and back (a queue: g:insert("queue", 1, task))
---Returns: —
---@param key string
---@param pos? string
---@param value any
function G:insert(key, pos, value) end

---(changes the state) table.remove on a stored list: takes out the entry at pos (default: the last) and returns it; nil when the list is empty or missing
---Returns: value or nil
---@param key string
---@param pos? string
---@return any
function G:remove(key, pos) end

---a variable of seat p
---Returns: value or nil
---@param p integer
---@param key string
---@return any
function G:pget(p, key) end

---(changes the state) nil deletes
---Returns: —
---@param p integer
---@param key string
---@param value any
function G:pset(p, key, value) end

---cards of kind, or all cards if kind is nil
---Returns: integer
---@param owner integer?
---@param zone string
---@param kind? string
---@return integer
function G:count(owner, zone, kind) end

---whether the zone holds no card ("the development card deck is empty"). It reads that alone: a value kept with g:cached's "recorded" (or a hook declared when_changed) that asked it stays good while cards come and go, as long as the zone stays empty, or not empty, as it was (base's evaluation asks it of the deck, so another seat's purchase does not make every seat's evaluation computed again)
---Returns: boolean
---@param owner integer?
---@param zone string
---@return boolean
function G:empty(owner, zone) end

---whether the zone holds at least cards ({ ore = 3, grain = 2 }, a price): one call instead of reading g:cards and comparing in Lua
---Returns: boolean
---@param owner integer?
---@param zone string
---@param cards string
---@return boolean
function G:holds(owner, zone, cards) end

---how many cards of cards (a price) the zone lacks, and how many cards asks for in all: what a player still needs to pay a price, in one call (base's evaluation weighs how near a hand is to each build with it)
---Returns: integer, integer
---@param owner integer?
---@param zone string
---@param cards string
---@return integer
function G:lacks(owner, zone, cards) end

---cards whose kind is in category
---Returns: integer
---@param owner integer?
---@param zone string
---@param category string
---@return integer
function G:count_category(owner, zone, category) end

---counts: { ore = 2, brick = 1 } (only kinds held); a stack: the list of kinds, bottom first
---Returns: table
---@param owner integer?
---@param zone string
---@return table
function G:cards(owner, zone) end

---(changes the state) adds n new cards (onto the top of a stack); past 65,535 of a kind (or in a stack) it is an error, never a wrap
---Returns: —
---@param owner integer?
---@param zone string
---@param kind string
---@param n integer
function G:create(owner, zone, kind, n) end

---(changes the state) moves n (default 1) cards of kind; error "'hand' holds 1 ore, not 2". From a stack it takes the topmost cards of that kind; onto a stack it puts them on top
---Returns: —
---@param from_owner integer?
---@param from_zone string
---@param to_owner integer?
---@param to_zone string
---@param kind string
---@param n? integer
function G:move(from_owner, from_zone, to_owner, to_zone, kind, n) end

---(changes the state) moves the top card of a stack; nil if the stack is empty; error "'x' is not a stack"
---Returns: kind or nil
---@param from_owner integer?
---@param from_zone string
---@param to_owner integer?
---@param to_zone string
---@return string?
function G:draw(from_owner, from_zone, to_owner, to_zone) end

---(changes the state) like g:move, but onto the **bottom** of a stack ("put it under the pile"); into a counted zone it is g:move
---Returns: —
---@param from_owner integer?
---@param from_zone string
---@param to_owner integer?
---@param to_zone string
---@param kind string
---@param n? integer
function G:move_under(from_owner, from_zone, to_owner, to_zone, kind, n) end

---(changes the state) shuffles a stack (random)
---Returns: —
---@param owner integer?
---@param zone string
function G:shuffle(owner, zone) end

---every way to pick n cards among kinds (a list of card names: { "brick", "lumber", "wool", "grain", "ore" }), at most within's count of each (a table of counts, such as a hand from g:cards) or any number if within is nil; each way a table of counts ({ ore = 2, wool = 1 }), listed with the first kind's count from the most down to none, then the next kind's. A list longer than 100,000 is an error: draw one with g:selection. What a discard's or a payment's options lists
---Returns: list of tables
---@param n integer
---@param kinds string
---@param within? string
---@return table[]
function G:selections(n, kinds, within) end

---the way g:selections(n, kinds, within) lists at place ⌊r · count⌋ + 1, for r in [0, 1) (what an action's sample is given), found by counting without making the list; nil if there is none
---Returns: table or nil
---@param n integer
---@param kinds string
---@param within string
---@param r string
---@return table?
function G:selection(n, kinds, within, r) end

---every trade of one group of gives (a list of count tables: { { ore = 4 }, { brick = 1, wool = 2 } }) for one card of a kind in kinds (a list of card names) that is not in the group and that within holds: the name of a zone of the game ("bank"), a table of counts, or nil for any; the groups in order, each with the kinds in order. What a maritime trade's options lists (base's trade)
---Returns: list of { group, { [kind] = 1 } }
---@param gives string
---@param kinds string
---@param within? string
---@return table[]
function G:trades(gives, kinds, within) end

---the trade g:trades(gives, kinds, within) lists at place ⌊r · count⌋ + 1, for r in [0, 1) (what an action's sample is given), found by counting without making the list; nil if there is none
---Returns: table or nil
---@param gives string
---@param kinds string
---@param within string
---@param r string
---@return table?
function G:trade_at(gives, kinds, within, r) end

---(changes the state) a card picked at random (each card equally likely), only among category if given; the card is **not** moved; nil if there is none
---Returns: kind or nil
---@param owner integer?
---@param zone string
---@param category? string
---@return string?
function G:random_card(owner, zone, category) end

---(changes the state) see below; at most 1,000 hexes; the pieces of the old board go back to their owners' supplies and every marker is lifted
---Returns: —
---@param layout CatanLayout
function G:build_board(layout) end

---
---Returns: integer
---@return integer
function G:hex_count() end

---
---Returns: integer
---@return integer
function G:intersection_count() end

---
---Returns: integer
---@return integer
function G:path_count() end

---two values: local terrain, number = g:hex(h)
---Returns: terrain, number or nil
---@param h integer
---@return string?
---@return integer?
function G:hex(h) end

---the card the hex's terrain produces
---Returns: kind or nil
---@param h integer
---@return string?
function G:hex_resource(h) end

---(changes the state) changes a hex's terrain and number token
---Returns: —
---@param h integer
---@param terrain string
---@param number? integer
function G:set_hex(h, terrain, number) end

---hexes whose number token is n
---Returns: list of hexes
---@param n integer
---@return integer[]
function G:hexes_numbered(n) end

---clockwise from the top: N, NE, SE, S, SW, NW
---Returns: list of 6 intersections
---@param h integer
---@return integer[]
function G:corners(h) end

---
---Returns: list of hexes
---@param h integer
---@return integer[]
function G:hex_neighbors(h) end

---hexes touching intersection n
---Returns: list of hexes
---@param n integer
---@return integer[]
function G:hexes_at(n) end

---one path away
---Returns: list of intersections
---@param n integer
---@return integer[]
function G:neighbors(n) end

---paths touching intersection n
---Returns: list of paths
---@param n integer
---@return integer[]
function G:paths_at(n) end

---two values
---Returns: intersection, intersection
---@param path integer
---@return integer
---@return integer
function G:ends(path) end

---kind is "hex", "intersection" or "path": "H7", "12", "12-13"
---Returns: string
---@param kind string
---@param id integer
---@return string
function G:label(kind, id) end

---from h (a hex of the outer ring), counter-clockwise round the ring, then the next ring inwards: the order lettered number tokens are laid in
---Returns: list of hexes
---@param h integer
---@return integer[]
function G:spiral(h) end

---where a named marker (such as "robber") stands
---Returns: hex or nil
---@param name string
---@return integer?
function G:marker(name) end

---(changes the state) h = nil removes the marker
---Returns: —
---@param name string
---@param h integer
function G:set_marker(name, h) end

---{ path = 5, ends = { 1, 4 }, resource = "ore" or nil, ratio = 2 } per harbor, resource = nil for a generic one
---Returns: list
---@return table[]
function G:harbors() end

---{ resource, ratio } of each harbor with a piece of p on one of its two intersections
---Returns: list
---@param p integer
---@return table[]
function G:harbors_of(p) end

---the piece on an intersection or path; the owner is nil for a piece of no player
---Returns: kind, owner — or nil, nil
---@param site string
---@param id integer
---@return string?
---@return integer?
function G:at(site, id) end

---pieces of kind p has not placed yet
---Returns: integer
---@param p integer
---@param kind string
---@return integer
function G:supply(p, kind) end

---(changes the state) puts a piece from p's supply on the site its kind stands on; errors "that intersection is already taken", "no settlement left in the supply". Checks nothing else: legality is the rules' business. p = nil places a piece of **no player** (from no supply): it blocks like another player's piece (Distance Rule, roads, Longest Road) but has no owner for g:at, g:owners_at or production (the 5-6 player game's blockers)
---Returns: —
---@param p integer
---@param kind string
---@param id integer
function G:place(p, kind, id) end

---(changes the state) replaces the piece on the site with a kind of the same owner; the old piece returns to the supply; error "there is no piece there to upgrade"
---Returns: —
---@param id integer
---@param kind string
function G:upgrade(id, kind) end

---(changes the state) back to its owner's supply; error "there is no piece there"
---Returns: —
---@param site string
---@param id integer
function G:remove_piece(site, id) end

---where p's pieces of kind stand
---Returns: list of sites
---@param p integer
---@param kind string
---@return integer[]
function G:pieces_of(p, kind) end

---how many of p's pieces of kind stand on the board
---Returns: integer
---@param p integer
---@param kind string
---@return integer
function G:piece_count(p, kind) end

---seats with a piece on a corner of hex h, ascending, each once
---Returns: list of seats
---@param h integer
---@return integer[]
function G:owners_at(h) end

---(changes the state) production on number as the variant declares it (production and each piece's yields: [modding.md](modding.md#production)), counted and paid by the engine: paid[card][seat], the cards each seat received (a card nobody received is absent); short[card], for each card the paying zone was short of, the seat that took what was left (the shortage exception) or false. With a production filter hook, each producing piece's yield is filtered first, as (g, n, seat, piece, hex). Error "this game declares no production"
---Returns: paid, short
---@param number integer
---@return any
function G:produce(number) end

---what p expects a roll, for evaluations: each of its pieces on an intersection yields (its declared yields) the chances in 36 that two dice roll the number of each hex around it (a token's pips), the hex under the production's blocked_by marker nothing; total and { ore = 5, ... } (cards expected only). Error "this game declares no production"
---Returns: total, by_card
---@param p integer
---@return any
function G:expected_production(p) end

---the same for intersection n, as a piece yielding one would expect there (what a settlement built there would bring)
---Returns: total, by_card
---@param n integer
---@return any
function G:expected_production_at(n) end

---the pieces on the corners of hex h, clockwise from the top, three entries each: intersection, kind, owner (false for a piece of no player): for i = 1, #t, 3 do local node, kind, owner = t[i], t[i + 1], t[i + 2] end. One call instead of g:corners(h) and a g:at per corner
---Returns: flat list
---@param h integer
---@return any
function G:corner_pieces(h) end

---empty intersections; with spacing >= 2, only those with no piece on a neighbouring intersection (the Distance Rule); with p, only those touching one of p's path pieces
---Returns: list of intersections
---@param spacing string
---@param p? integer
---@return integer[]
function G:open_intersections(spacing, p) end

---empty paths that extend p's network: an end holds p's piece, or is empty and touches p's path piece
---Returns: list of paths
---@param p integer
---@return integer[]
function G:open_paths(p) end

---the longest trail (no path used twice) of p's path pieces of kind, broken by other players' intersection pieces (Longest Road)
---Returns: integer
---@param p integer
---@param kind string
---@return integer
function G:longest_trail(p, kind) end

---two values
---Returns: rows, cols
---@param owner integer?
---@param grid string
---@return integer
---@return integer
function G:grid_size(owner, grid) end

---the card in play and the store: local card, n = g:slot(p, "principality", 2, 11)
---Returns: kind or nil, store
---@param owner integer?
---@param grid string
---@param row integer
---@param col integer
---@return string?
---@return integer
function G:slot(owner, grid, row, col) end

---
---Returns: integer
---@param owner integer?
---@param grid string
---@param row integer
---@param col integer
---@return integer
function G:store(owner, grid, row, col) end

---the whole pile, bottom first
---Returns: list of kinds
---@param owner integer?
---@param grid string
---@param row integer
---@param col integer
---@return table[]
function G:slot_cards(owner, grid, row, col) end

---every position holding a card or a store, in reading order: { row, col, label, card, store, depth } (card = the one in play or nil, depth = cards in the pile)
---Returns: list
---@param owner integer?
---@param grid string
---@return table[]
function G:slots(owner, grid) end

---positions whose card in play is kind (any card if nil)
---Returns: list of { row, col }
---@param owner integer?
---@param grid string
---@param kind? string
---@return table[]
function G:grid_find(owner, grid, kind) end

---how many positions have kind (any card) in play
---Returns: integer
---@param owner integer?
---@param grid string
---@param kind? string
---@return integer
function G:grid_count(owner, grid, kind) end

---in-bounds positions around one, as g:slots entries (empty ones too); how is "orthogonal" (default), "diagonal" or "all"
---Returns: list
---@param owner integer?
---@param grid string
---@param row integer
---@param col integer
---@param how? string
---@return table[]
function G:slot_neighbors(owner, grid, row, col, how) end

---"K2"
---Returns: string
---@param owner integer?
---@param grid string
---@param row integer
---@param col integer
---@return string
function G:slot_label(owner, grid, row, col) end

---four values (owner nil for a game grid); all nil if the label names no position. What a <slot> argument gives the rules
---Returns: owner, grid, row, col
---@param label string
---@return integer?
---@return string?
---@return integer?
---@return integer?
function G:slot_at(label) end

---(changes the state) moves one card of kind from a zone (from a stack: the topmost of that kind) onto the pile at a position
---Returns: —
---@param from_owner integer?
---@param from_zone string
---@param owner integer?
---@param grid string
---@param row integer
---@param col integer
---@param kind string
function G:place_card(from_owner, from_zone, owner, grid, row, col, kind) end

---(changes the state) a new card on the pile (set-up)
---Returns: —
---@param owner integer?
---@param grid string
---@param row integer
---@param col integer
---@param kind string
function G:create_card(owner, grid, row, col, kind) end

---(changes the state) moves the card in play into a zone (under a stack if bottom); a position left without cards loses its store
---Returns: kind
---@param owner integer?
---@param grid string
---@param row integer
---@param col integer
---@param to_owner integer?
---@param to_zone string
---@param bottom? boolean
---@return string
function G:take_card(owner, grid, row, col, to_owner, to_zone, bottom) end

---(changes the state) n from 0; limits such as "at most 3" are the rules' business
---Returns: —
---@param owner integer?
---@param grid string
---@param row integer
---@param col integer
---@param n integer
function G:set_store(owner, grid, row, col, n) end

---(changes the state) swaps everything at two positions, piles and stores
---Returns: —
---@param owner integer?
---@param grid string
---@param row1 integer
---@param col1 integer
---@param row2 integer
---@param col2 integer
function G:swap_slots(owner, grid, row1, col1, row2, col2) end

---(changes the state) at most 1,000 dice; uses the dice forced by the sandbox command dice A B first
---Returns: list of n dice (default 2), each 1..6
---@param n? integer
---@return table[]
function G:roll(n) end

---(changes the state) error if n < 1
---Returns: integer in 1..n
---@param n integer
---@return integer
function G:random(n) end

---(changes the state) the same values in random order
---Returns: a new list
---@param list any[]
---@return any
function G:shuffled(list) end

---(changes the state) a message for everyone, kept with the action in the game log. With arguments, text is a format: %s a string or number, %d an integer, %c a table of card counts written as commands write cards (4 ore brick, nothing for none; in the order of the game's cards: categories by name, each category's cards as declared, so base writes resources as brick, lumber, wool, grain, ore), %% a percent sign: g:log("%s rolls %d+%d", g:color(p), a, b) builds the message in the engine, cheaper than joining strings with .. in Lua
---Returns: —
---@param text string
---@param ... any
function G:log(text, ...) end

---(changes the state) a message only the listed seats read: g:tell({ p, victim }, "...")
---Returns: —
---@param seats integer[]
---@param text string
function G:tell(seats, text) end

---a modder's line: its arguments (strings as they are, other values shown short: tables to two levels) joined by spaces, with the file:line of the call. Shown under catan play --debug after each action and in trace; never in the game's log, the state or a replay, and it costs the same whether anyone looks. At most 200 lines a call are kept
---Returns: —
---@param ... any
function G:debug(...) end

---records the event in the action's outcome, then runs every on(event, ...) hook as fn(g, data)
---Returns: —
---@param event string
---@param data any
function G:emit(event, data) end

---whether any on(event, ...) hook is registered: a rule may build an event's data only when someone reads it (g:emit still records the event)
---Returns: boolean
---@param event string
---@return boolean
function G:listens(event) end

---runs every filter(point, ...) hook as value = fn(g, value, ...)
---Returns: the value
---@param point string
---@param value any
---@param ... any
---@return any
function G:filter(point, value, ...) end

---the price of what (road, settlement, ...) for seat with every variant's changes: g:filter("cost", {}, what, seat), frozen, so a rule reads it and never changes it (to change a price, copy it). While the cost filter is the prices declared with prices { ... } alone, the engine answers the declared table itself, without running the filter or building a table (the bots' evaluation asks several prices a position)
---Returns: cards table, read-only
---@param what string
---@param seat integer
---@return any
function G:price(what, seat) end

---runs every sequence(point, ...) hook as fn(g, ...)
---Returns: —
---@param point string
---@param ... any
function G:run(point, ...) end

---fn(g, arg), computed once while what it reads is unchanged, then the same value (the same table) again; reads: nil (it may read anything: any change of the state recomputes it), "grids" (only the slot grids), "seat_grids" (only seat arg's grids), "seat_cards" (only which cards lie where on seat arg's grids, not their stores), "constants" (nothing of the state: only arg and the variant's own constants, such as a card's text; kept for as long as the rules are loaded), "recorded" (whatever fn reads, as the engine records it while fn runs: kept until something it read changes). The value is frozen when it is kept, as the rules' tables are: a rule that changes it fails at that line
---Returns: what fn returns
---@param fn string
---@param arg string
---@param reads? string
---@return any
function G:cached(fn, arg, reads) end

---base.lua's exports (docs/api.md, Base's exports).
---@class CatanBase
catan = {}

---the five resources in printed order: { "brick", "lumber", "wool", "grain", "ore" }
---@type string[]
catan.RESOURCES = {}

---a shallow copy of a table
---@param t table
function catan.copy(t) end

---how many cards a card table holds
---@param cards table
function catan.total(cards) end

---a card table as text: "2 ore grain", "nothing"
---@param cards table
function catan.cards_text(cards) end

---whether seat p's hand holds cards (hand: g:cards(p, "hand") when asking many times)
---@param g G
---@param p integer
---@param cards table
---@param hand? table
function catan.has(g, p, cards, hand) end

---moves cards from p's hand to the bank
---@param g G
---@param p integer
---@param cards table
function catan.pay(g, p, cards) end

---resource cards in p's hand
---@param g G
---@param p integer
function catan.hand_size(g, p) end

---whether a list holds x
---@param list any[]
---@param x any
function catan.contains(list, x) end

---the seat's name for log messages
---@param g G
---@param p integer
function catan.name(g, p) end

---the phases a development card may be played in (roll, main, trade, build)
---@type string[]
catan.PLAY_PHASES = {}

---whether p may play a development card of kind card now: p's turn, no development card played this turn (played_dev), one held in dev (not bought this turn: those wait in dev_new)
---@param g G
---@param p integer
---@param card string
function catan.may_play(g, p, card) end

---plays it: marks the turn's card as played, moves it from dev to the game's box (or, with face_up, to p's played zone, as knights go) and emits played_development
---@param g G
---@param p integer
---@param card string
---@param face_up? boolean
function catan.use_card(g, p, card, face_up) end

---The declaration of a variant (docs/modding.md, The declaration).
---@class CatanVariant
---@field extends? string|string[] "base" or { "a", "b" }
---@field layers_on? string "base"
---@field description? string string
---@field players? { min?: integer, max?: integer, default?: integer } { min = 3, max = 4, default = 4 }
---@field colors? string[] { "red", "blue", ... }, in seat order
---@field cards? table<string, string[]> { category = { "kind", ... }, ... }
---@field zones? table[] list of { name, owner = "player" | "game", stack = false, visibility = "public", title } (title: what players read, e.g. "bought this turn"; default: the name without underscores)
---@field pieces? table[] list of { name, on = "intersection" | "path", supply = N, yields = N } (yields: the cards of its hex's resource the piece receives when the hex produces; default 0)
---@field terrains? table[] list of { name, produces = "kind" } (produces optional)
---@field production? table[] { from = zone, to = zone, blocked_by = marker, shortage_exception = option } (blocked_by and shortage_exception optional)
---@field grids? table[] list of { name, owner = "player" | "game", rows = N, cols = N }
---@field secret_actions? string[] list of action names
---@field quiet_actions? string[] list of action names
---@field options? table[] list of { name, type, default, doc, ... }
---@field feature_titles? table<string, string> { ["near.city"] = "of a city's price, the share in your hand", ... }

---An action (docs/modding.md, Actions).
---@class CatanAction
---@field name string
---@field syntax? string
---@field help? string
---@field phases? string[]
---@field turn? boolean|string[]
---@field holds? string[]
---@field supply? string
---@field cost? { [1]: string, from: string, free?: string[] }
---@field when? fun(g: G, p: integer): boolean
---@field options? fun(g: G, p: integer): any[]
---@field sample? fun(g: G, p: integer, r: number): any
---@field legal? fun(g: G, p: integer, ...): boolean, any
---@field apply fun(g: G, p: integer, ...)
---@field not_now? string
---@field why_not? fun(g: G, p: integer): string?
---@field available? fun(g: G): boolean
---@field debug? boolean

---@class CatanHookOptions
---@field priority? integer

---declares the variant and loads its parents
---@param decl CatanVariant
function variant(decl) end

---registers fn(g, ...); opts: { priority = N, when_changed = true } (when_changed: fn(g) is run again only once something it read has changed: see g:cached above)
---@param point CatanSequencePoint
---@param name string
---@param fn fun(g: G, ...)
---@param opts? CatanHookOptions
function sequence(point, name, fn, opts) end

---registers fn(g, value, ...) -> value
---@param point CatanFilterPoint
---@param name string
---@param fn fun(g: G, value: any, ...): any
---@param opts? CatanHookOptions
function filter(point, name, fn, opts) end

---registers fn(g, data)
---@param event CatanEvent
---@param name string
---@param fn fun(g: G, data: table)
---@param opts? CatanHookOptions
function on(event, name, fn, opts) end

---declares an action (turn, holds, supply, cost: what it needs, checked by the engine: docs/modding.md, "What an action needs")
---@param def CatanAction
function action(def) end

---declares prices as data, as a Building Costs card prints them (base: road = { brick = 1, lumber = 1 }); a later declaration replaces the prices it names. The cost filter starts from them: the first declaration registers the filter's first hook, <variant>.cost (priority -1000, base's base.cost), which adds the declared price of what. While no other cost hook is registered, the engine checks an action's declared cost against them itself (docs/modding.md, "Prices")
---@param list table<string, table<string, integer>>
function prices(list) end

---change a registered hook
---@param name string
function remove_hook(name) end

---change a registered hook
---@param name string
---@param fn function
function replace_hook(name, fn) end

---change a registered hook
---@param name string
---@param wrapper fun(original: function): function
function wrap_hook(name, wrapper) end

---change a declared action
---@param name string
function remove_action(name) end

---change a declared action
---@param name string
---@param parts table<string, fun(original: function): function>
function wrap_action(name, parts) end

---from legal: returns false plus the reason and its location; reason may be a function, and the reason is then reason(...), worded only when a player is refused (never while legal actions are listed or drawn, when deny returns false alone)
---@param reason string|fun(...): string
---@param ... any
---@return boolean, table?
function deny(reason, ...) end

---every registered hook name, sorted
---@return string[]
function hook_names() end

---while the variant loads: runs file, a part of the variant's own folder (variants/NAME/, beside NAME.lua), with ... as its arguments, and returns what it returns (see [modding.md](modding.md#how-a-variant-is-loaded), "A variant in several files")
---@param file string
---@param ... any
---@return any ...
function part(file, ...) end

