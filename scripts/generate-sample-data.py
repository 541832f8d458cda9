#!/usr/bin/env python3
"""Generate the ligasd sample data tree.

Run from the repository root:

    python3 scripts/generate-sample-data.py

The script deletes and recreates ``Sources/LigasSampleData/SampleData/``.
Its output is fully deterministic: every random choice comes from
``random.Random`` instances seeded with fixed strings, and the PNG files are
written by hand (zlib + struct), so two runs produce byte-identical trees.

Only the Python 3 standard library is used.

The layout mirrors the ligasd REST contract so the folder can be served as a
static site; all image references inside the JSON files are relative to the
base URL.
"""

import datetime
import json
import math
import os
import random
import shutil
import struct
import sys
import unicodedata
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
OUT = os.path.join(ROOT, "Sources", "LigasSampleData", "SampleData")

SEED = "ligasd-sample-data-v1"

# ---------------------------------------------------------------------------
# Leagues and clubs
# ---------------------------------------------------------------------------

# Each club: (name, primary RGB, secondary RGB, logo pattern)
# Patterns: vsplit, hsplit, diag, vstripe, hstripe, vstripes, hstripes, chevron
SERIE_A = [
    ("Barcelona SC", (255, 205, 0), (200, 16, 46), "hstripe"),
    ("Emelec", (0, 71, 171), (190, 196, 204), "hstripes"),
    ("LDU Quito", (255, 255, 255), (206, 17, 38), "chevron"),
    ("Independiente del Valle", (20, 20, 24), (0, 84, 166), "vstripes"),
    ("Universidad Católica", (0, 45, 114), (120, 190, 240), "hsplit"),
    ("Aucas", (255, 214, 0), (213, 0, 28), "diag"),
    ("El Nacional", (204, 0, 0), (0, 51, 153), "vsplit"),
    ("Deportivo Cuenca", (190, 10, 30), (25, 25, 25), "vstripe"),
    ("Delfín", (255, 200, 20), (0, 70, 140), "hsplit"),
    ("Orense", (0, 128, 60), (255, 255, 255), "vstripes"),
    ("Mushuc Runa", (200, 30, 40), (0, 110, 70), "diag"),
    ("Técnico Universitario", (215, 20, 30), (255, 255, 255), "vstripes"),
    ("Libertad", (120, 20, 40), (240, 190, 40), "hstripe"),
    ("Macará", (110, 190, 235), (255, 255, 255), "vsplit"),
    ("Manta FC", (0, 60, 120), (0, 170, 190), "chevron"),
    ("Vinotinto", (110, 20, 45), (230, 200, 120), "vstripe"),
]

SERIE_B = [
    ("9 de Octubre", (0, 90, 170), (255, 255, 255), "hstripes"),
    ("Búhos ULVR", (30, 30, 30), (240, 130, 20), "diag"),
    ("Chacaritas", (0, 140, 70), (255, 215, 0), "vsplit"),
    ("Cumbayá", (235, 110, 20), (25, 25, 25), "chevron"),
    ("Gualaceo", (255, 255, 255), (0, 120, 60), "hstripe"),
    ("Guayaquil City", (110, 180, 230), (0, 40, 90), "hsplit"),
    ("Imbabura", (0, 60, 150), (255, 210, 0), "vstripe"),
    ("Independiente Juniors", (20, 20, 24), (0, 84, 166), "diag"),
    ("Leones del Norte", (230, 170, 20), (110, 60, 20), "vstripes"),
    ("San Antonio", (200, 20, 40), (0, 40, 100), "vsplit"),
]

LEAGUES = [
    {
        "id": "serie-a",
        "name": "LigaPro Serie A",
        "clubs": SERIE_A,
        "previous_start": datetime.date(2025, 2, 15),  # Saturday
        "upcoming_start": datetime.date(2027, 2, 13),  # Saturday
        "badge": ((0, 45, 110), (255, 200, 30)),  # circle colour, star colour
    },
    {
        "id": "serie-b",
        "name": "LigaPro Serie B",
        "clubs": SERIE_B,
        "previous_start": datetime.date(2025, 2, 22),  # Saturday
        "upcoming_start": datetime.date(2027, 2, 20),  # Saturday
        "badge": ((150, 20, 40), (225, 230, 235)),
    },
]

PREVIOUS_ROUNDS = 4
UPCOMING_ROUNDS = 2

# Kick-off slots within a round: (days after Saturday, hour, minute), UTC.
# Ecuador is UTC-5, so 00:00Z/01:00Z on Sunday are Saturday evening local time.
KICKOFF_SLOTS = [
    (0, 19, 0),
    (0, 21, 30),
    (1, 0, 0),
    (1, 1, 0),
    (1, 19, 0),
    (1, 21, 30),
    (0, 19, 0),
    (1, 19, 0),
]

HIGHLIGHTS_BASE = "https://highlights.ligapro.example"


def slugify(name):
    text = unicodedata.normalize("NFKD", name)
    text = "".join(c for c in text if not unicodedata.combining(c)).lower()
    out = []
    for c in text:
        if c.isascii() and c.isalnum():
            out.append(c)
        else:
            out.append("-")
    slug = "-".join(part for part in "".join(out).split("-") if part)
    return slug


# ---------------------------------------------------------------------------
# Fictitious people
# ---------------------------------------------------------------------------

FIRST_NAMES = {
    "Ecuador": [
        "Jordy", "Byron", "Kevin", "Jefferson", "Segundo", "Cristian", "Darío",
        "Wilmer", "Édison", "Jhon", "Anthony", "Bryan", "Washington", "Fricson",
        "Luis", "Carlos", "José", "Ángel", "Jhonny", "Marlon", "Holger", "Fidel",
        "Romario", "Joel", "Jairo", "Erick", "Alexis", "Stiven", "Renato",
        "Nixon", "Walter", "Geovanny", "Brayan", "Fernando", "Andrés", "Diego",
        "Jhojan", "Gustavo", "Oswaldo", "Patricio", "Danny", "Franklin",
        "Leonardo", "Mauricio", "Sebastián", "Mateo", "Jostin", "Ederson",
        "Yeltsin", "Darwin", "Néicer", "Johan", "Richard", "Ulises",
    ],
    "Argentina": ["Facundo", "Nicolás", "Gonzalo", "Ezequiel", "Matías",
                  "Agustín", "Lautaro", "Federico", "Tomás", "Leandro"],
    "Colombia": ["Juan Camilo", "Yeison", "Duván", "Wilder", "Harold",
                 "Jhon Fredy", "Andrés Felipe", "Yerson", "Éider", "Cristian"],
    "Uruguay": ["Rodrigo", "Maximiliano", "Gastón", "Santiago", "Emiliano",
                "Joaquín", "Bruno", "Martín", "Gerardo", "Ignacio"],
    "Venezuela": ["Yordan", "Josué", "Ronald", "Yohandry", "Eduardo",
                  "Jefferson", "Luis", "Freddy", "Jhonder", "Daniel"],
    "Brasil": ["Thiago", "João Pedro", "Rafael", "Gabriel", "Vinícius",
               "Lucas", "Felipe", "Matheus", "Caio", "Diego"],
    "Paraguay": ["Derlis", "Osvaldo", "Ramón", "Blas", "Celso",
                 "Aldo", "Éver", "Hugo", "Julio", "Néstor"],
}

LAST_NAMES = {
    "Ecuador": [
        "Quiñónez", "Caicedo", "Valencia", "Preciado", "Corozo", "Angulo",
        "Arroyo", "Castillo", "Bolaños", "Cevallos", "Mina", "Ayoví", "Tenorio",
        "Estupiñán", "Montaño", "Cortez", "Folleco", "Nazareno", "Zambrano",
        "Vera", "Mendoza", "Chalá", "Plaza", "Guagua", "Pineida", "Lastra",
        "Andrade", "Chicaiza", "Quishpe", "Tituaña", "Pilatasig", "Cuero",
        "Palacios", "Batioja", "Arboleda", "Hurtado", "Ordóñez", "Villacís",
        "Morales", "Cabezas", "Alvarado", "Saltos", "Macías", "Intriago",
        "Moreira", "Loor", "Pincay", "Burbano", "Jaramillo", "Guerrero",
        "Minda", "Sornoza", "Carabalí", "Ramírez", "Espinoza", "León",
    ],
    "Argentina": ["Gutiérrez", "Sosa", "Benítez", "Luna", "Domínguez",
                  "Ferreyra", "Acosta", "Medina", "Romero", "Herrera"],
    "Colombia": ["Mosquera", "Rentería", "Murillo", "Cuesta", "Perea",
                 "Palacios", "Lucumí", "Ibargüen", "Córdoba", "Asprilla"],
    "Uruguay": ["Olivera", "Fernández", "Pereira", "Silva", "Núñez",
                "Rodríguez", "Cabrera", "Viera", "Acuña", "Bentancor"],
    "Venezuela": ["Martínez", "Rondón", "Hernández", "Peña", "Ramírez",
                  "Chacón", "Blanco", "Aguilar", "Rivas", "Castro"],
    "Brasil": ["Oliveira", "Souza", "Lima", "Carvalho", "Ribeiro",
               "Almeida", "Costa", "Nascimento", "Barbosa", "Teixeira"],
    "Paraguay": ["Giménez", "Villalba", "Ayala", "Cáceres", "Ortiz",
                 "Riveros", "Benítez", "Aquino", "Galeano", "Duarte"],
}

FOREIGN_COUNTRIES = ["Argentina", "Colombia", "Uruguay", "Venezuela",
                     "Brasil", "Paraguay"]

# Never generate the name of a well-known real footballer.
BLOCKED_NAMES = {
    "Moisés Caicedo", "Felipe Caicedo", "Enner Valencia", "Antonio Valencia",
    "Luis Valencia", "Pervis Estupiñán", "Byron Castillo", "Segundo Castillo",
    "Ángelo Preciado", "Janner Corozo", "Leonel Quiñónez", "Jordy Caicedo",
    "Carlos Gruezo", "José Cifuentes", "Kevin Rodríguez", "Alan Franco",
    "Jackson Porozo", "Édison Méndez", "Iván Hurtado", "Ulises de la Cruz",
    "Walter Ayoví", "Cristian Noboa", "Joel Ordóñez", "Jhon Jairo Espinoza",
    "Kendry Páez", "Luis Gutiérrez", "Diego Palacios", "Fernando Gutiérrez",
    "Yeison Murillo", "Jefferson Montero", "Renato Ibarra", "Romario Ibarra",
    "Jefferson Mendoza", "Erick Castillo", "Cristian Ramírez",
    "José Cevallos", "Diego Acosta", "Luis Caicedo",
}

SQUAD = [("goalkeeper", 3), ("defender", 7), ("midfielder", 7), ("forward", 5)]

NUMBER_POOLS = {
    "goalkeeper": [12, 22, 25, 30, 31, 33, 40],
    "defender": [2, 3, 4, 5, 6, 13, 14, 15, 16, 24, 26, 27, 28, 32, 34],
    "midfielder": [8, 10, 17, 18, 19, 20, 21, 23, 35, 36, 44, 77],
    "forward": [7, 9, 11, 29, 37, 38, 39, 90, 99],
}


def pick_nationality(rng, coach=False):
    r = rng.random()
    if coach:
        if r < 0.45:
            return "Ecuador"
        if r < 0.95:
            return rng.choice(["Argentina", "Argentina", "Uruguay", "Uruguay",
                               "Colombia", "Paraguay", "Venezuela", "Brasil"])
        return None
    if r < 0.80:
        return "Ecuador"
    if r < 0.96:
        return rng.choice(FOREIGN_COUNTRIES)
    return None


def pick_name(rng, nationality, used):
    pool = nationality or "Ecuador"
    while True:
        name = "%s %s" % (rng.choice(FIRST_NAMES[pool]),
                          rng.choice(LAST_NAMES[pool]))
        if name not in used and name not in BLOCKED_NAMES:
            used.add(name)
            return name


def make_squad(team_id, used_names):
    rng = random.Random("%s/players/%s" % (SEED, team_id))
    entries = []
    for position, count in SQUAD:
        pool = list(NUMBER_POOLS[position])
        if position == "goalkeeper":
            numbers = [1] + rng.sample(pool, count - 1)
        else:
            numbers = rng.sample(pool, count)
        for number in sorted(numbers):
            nat = pick_nationality(rng)
            entries.append({"name": pick_name(rng, nat, used_names),
                            "number": number, "position": position,
                            "nationality": nat})
    coach_nat = pick_nationality(rng, coach=True)
    entries.append({"name": pick_name(rng, coach_nat, used_names),
                    "number": None, "position": "coach",
                    "nationality": coach_nat})

    numbers = [e["number"] for e in entries if e["number"] is not None]
    assert len(numbers) == len(set(numbers)), team_id
    assert all(1 <= n <= 99 for n in numbers)

    # Captain: one experienced outfield player (defender or midfielder).
    outfield = [i for i, e in enumerate(entries)
                if e["position"] in ("defender", "midfielder")]
    captain = rng.choice(outfield)
    coach = len(entries) - 1
    with_photo = {captain, coach}

    players = []
    for i, e in enumerate(entries):
        pid = "%s-%02d" % (team_id, i + 1)
        players.append({
            "id": pid,
            "name": e["name"],
            "photo": ("images/players/%s.png" % pid) if i in with_photo else None,
            "number": e["number"],
            "position": e["position"],
            "nationality": e["nationality"],
        })
    return players, captain, coach


# ---------------------------------------------------------------------------
# Fixtures
# ---------------------------------------------------------------------------

def round_robin(team_count, rounds):
    """Circle method; returns `rounds` rounds of (home_index, away_index).

    Home advantage is assigned greedily so that every club alternates home
    and away as much as possible (fewest home games so far hosts; ties go to
    the club that played away most recently, then to the lower index).
    """
    assert team_count % 2 == 0
    order = list(range(team_count))
    homes = [0] * team_count
    last_home = [False] * team_count
    result = []
    for _ in range(rounds):
        pairs = []
        for i in range(team_count // 2):
            a, b = order[i], order[team_count - 1 - i]
            key_a = (homes[a], last_home[a], a)
            key_b = (homes[b], last_home[b], b)
            home, away = (a, b) if key_a < key_b else (b, a)
            homes[home] += 1
            last_home[home], last_home[away] = True, False
            pairs.append((home, away))
        result.append(pairs)
        order = [order[0]] + [order[-1]] + order[1:-1]
    return result


def iso(dt):
    return dt.strftime("%Y-%m-%dT%H:%M:%S.000Z")


def score(rng, winner, home, away):
    """Goals for a result already drawn: from their own generator, so adding scores changed
    no winner, date or name of the earlier tree."""
    loser_goals = rng.choice([0, 0, 0, 1, 1, 2])
    if winner == "Draw":
        return loser_goals, loser_goals
    winner_goals = loser_goals + rng.choice([1, 1, 1, 2, 2, 3])
    return (winner_goals, loser_goals) if winner == home else (loser_goals, winner_goals)


def make_matches(league, teams):
    rng = random.Random("%s/matches/%s" % (SEED, league["id"]))
    goals = random.Random("%s/scores/%s" % (SEED, league["id"]))
    rounds = round_robin(len(teams), PREVIOUS_ROUNDS + UPCOMING_ROUNDS)
    previous, upcoming = [], []
    # Exactly a quarter of the played matches end in a draw.
    played = PREVIOUS_ROUNDS * (len(teams) // 2)
    draws = set(rng.sample(range(played), round(played * 0.25)))
    for r, pairs in enumerate(rounds):
        if r < PREVIOUS_ROUNDS:
            saturday = league["previous_start"] + datetime.timedelta(weeks=r)
        else:
            saturday = league["upcoming_start"] + datetime.timedelta(
                weeks=r - PREVIOUS_ROUNDS)
        assert saturday.weekday() == 5
        games = []
        for m, (h, a) in enumerate(pairs):
            day, hour, minute = KICKOFF_SLOTS[m % len(KICKOFF_SLOTS)]
            kickoff = datetime.datetime(saturday.year, saturday.month,
                                        saturday.day, hour, minute) \
                + datetime.timedelta(days=day)
            games.append((kickoff, m, teams[h], teams[a]))
        games.sort(key=lambda g: (g[0], g[1]))
        for kickoff, _, home, away in games:
            match = {
                "date": iso(kickoff),
                "description": "%s vs. %s" % (home["name"], away["name"]),
                "home": home["name"],
                "away": away["name"],
            }
            if r < PREVIOUS_ROUNDS:
                index = len(previous)
                if index in draws:
                    winner = "Draw"
                elif rng.random() < 0.58:  # a little home advantage
                    winner = home["name"]
                else:
                    winner = away["name"]
                match["winner"] = winner
                match["homeScore"], match["awayScore"] = score(
                    goals, winner, home["name"], away["name"])
                match["highlights"] = "%s/%s/2025/r%02d-%s-%s.mp4" % (
                    HIGHLIGHTS_BASE, league["id"], r + 1, home["id"], away["id"])
                previous.append(match)
            else:
                upcoming.append(match)
    return {"matches": {"previous": previous, "upcoming": upcoming}}


def make_standings(teams, matches):
    """The table after the played matches: 3 points a win, 1 a draw; ties broken by goal
    difference, goals scored, then name."""
    rows = {t["name"]: {"team": {k: t[k] for k in ("id", "name", "logo")},
                        "played": 0, "won": 0, "drawn": 0, "lost": 0,
                        "goalsFor": 0, "goalsAgainst": 0, "points": 0}
            for t in teams}
    for m in matches["matches"]["previous"]:
        for side, goals_for, goals_against in (
                (m["home"], m["homeScore"], m["awayScore"]),
                (m["away"], m["awayScore"], m["homeScore"])):
            row = rows[side]
            row["played"] += 1
            row["goalsFor"] += goals_for
            row["goalsAgainst"] += goals_against
            if goals_for > goals_against:
                row["won"] += 1
                row["points"] += 3
            elif goals_for == goals_against:
                row["drawn"] += 1
                row["points"] += 1
            else:
                row["lost"] += 1
    ordered = sorted(rows.values(), key=lambda r: (
        -r["points"], -(r["goalsFor"] - r["goalsAgainst"]), -r["goalsFor"],
        r["team"]["name"]))
    return {"standings": [dict({"rank": i + 1}, **r) for i, r in enumerate(ordered)]}


# ---------------------------------------------------------------------------
# PNG writing (no third-party libraries)
# ---------------------------------------------------------------------------

def png_chunk(kind, data):
    return (struct.pack(">I", len(data)) + kind + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))


def encode_png(width, height, rows, channels):
    """rows: list of bytes objects, each width*channels long."""
    color_type = {3: 2, 4: 6}[channels]
    raw = bytearray()
    prev = bytes(width * channels)
    for row in rows:
        assert len(row) == width * channels
        # Filter choice: None (0) or Sub (1) or Up (2), whichever has the
        # smaller sum of absolute values (standard heuristic).
        candidates = [(0, row)]
        sub = bytearray(len(row))
        for i in range(len(row)):
            left = row[i - channels] if i >= channels else 0
            sub[i] = (row[i] - left) & 0xFF
        candidates.append((1, bytes(sub)))
        up = bytes((row[i] - prev[i]) & 0xFF for i in range(len(row)))
        candidates.append((2, up))

        def cost(c):
            return sum(b if b < 128 else 256 - b for b in c[1])
        ftype, data = min(candidates, key=cost)
        raw.append(ftype)
        raw += data
        prev = row
    ihdr = struct.pack(">IIBBBBB", width, height, 8, color_type, 0, 0, 0)
    return (b"\x89PNG\r\n\x1a\n"
            + png_chunk(b"IHDR", ihdr)
            + png_chunk(b"IDAT", zlib.compress(bytes(raw), 9))
            + png_chunk(b"IEND", b""))


def render(width, height, shade, channels, ss=4):
    """Supersampled rasteriser.

    shade(x, y) returns an (r, g, b, a) tuple (a in 0..1) for a point in
    continuous pixel coordinates. Samples are averaged (premultiplied).
    """
    rows = []
    step = 1.0 / ss
    offsets = [(i + 0.5) * step for i in range(ss)]
    n = ss * ss
    for py in range(height):
        row = bytearray()
        for px in range(width):
            r = g = b = a = 0.0
            for oy in offsets:
                for ox in offsets:
                    cr, cg, cb, ca = shade(px + ox, py + oy)
                    r += cr * ca
                    g += cg * ca
                    b += cb * ca
                    a += ca
            if a > 0:
                col = (r / a, g / a, b / a)
            else:
                col = (0.0, 0.0, 0.0)
            alpha = a / n
            if channels == 4:
                if alpha <= 0:
                    row += b"\x00\x00\x00\x00"
                else:
                    row += bytes([int(round(col[0])), int(round(col[1])),
                                  int(round(col[2])),
                                  int(round(alpha * 255))])
            else:
                row += bytes([int(round(col[0] * alpha)),
                              int(round(col[1] * alpha)),
                              int(round(col[2] * alpha))])
        rows.append(bytes(row))
    return rows


def darken(c, f=0.35):
    return tuple(int(v * f) for v in c)


def luminance(c):
    return 0.299 * c[0] + 0.587 * c[1] + 0.114 * c[2]


# Shield geometry on a 64x64 canvas: flat top at y=TOP between x=8 and x=56,
# straight sides down to y=MID, then two circular arcs (tangent to the sides)
# meeting at a point (32, TIP).
SH_TOP, SH_MID, SH_TIP = 4.0, 30.0, 60.5
SH_LEFT, SH_RIGHT, SH_CX = 8.0, 56.0, 32.0
_half = SH_CX - SH_LEFT
_dy = SH_TIP - SH_MID
# Left arc: circle centred at (SH_LEFT + R, SH_MID) through (SH_CX, SH_TIP).
SH_R = (_half ** 2 + _dy ** 2) / (2 * _half)
SH_CL = (SH_LEFT + SH_R, SH_MID)
SH_CR = (SH_RIGHT - SH_R, SH_MID)
BORDER = 2.0


def shield_depth(x, y):
    """Signed distance inside the shield (positive inside)."""
    if y <= SH_MID:
        return min(y - SH_TOP, x - SH_LEFT, SH_RIGHT - x)
    dl = SH_R - math.hypot(x - SH_CL[0], y - SH_CL[1])
    dr = SH_R - math.hypot(x - SH_CR[0], y - SH_CR[1])
    return min(dl, dr, y - SH_TOP)


def pattern_colour(pattern, x, y, c1, c2):
    u = (x - SH_LEFT) / (SH_RIGHT - SH_LEFT)  # 0..1 across
    v = (y - SH_TOP) / (SH_TIP - SH_TOP)      # 0..1 down
    if pattern == "vsplit":
        return c1 if u < 0.5 else c2
    if pattern == "hsplit":
        return c1 if v < 0.45 else c2
    if pattern == "diag":
        return c1 if u + v * 0.9 < 0.95 else c2
    if pattern == "vstripe":
        return c2 if abs(u - 0.5) < 0.16 else c1
    if pattern == "hstripe":
        return c2 if 0.32 < v < 0.52 else c1
    if pattern == "vstripes":
        return c1 if int(u * 5) % 2 == 0 else c2
    if pattern == "hstripes":
        return c1 if int(v * 6) % 2 == 0 else c2
    if pattern == "chevron":
        return c2 if 0.30 < v - abs(u - 0.5) * 0.8 < 0.50 else c1
    raise ValueError(pattern)


def team_logo(primary, secondary, pattern):
    border = darken(primary if luminance(primary) < 200 else secondary, 0.3)
    if luminance(border) > 60:
        border = (30, 30, 30)

    def shade(x, y):
        d = shield_depth(x, y)
        if d < 0:
            return (0, 0, 0, 0.0)
        if d < BORDER:
            return border + (1.0,)
        return pattern_colour(pattern, x, y, primary, secondary) + (1.0,)

    return encode_png(64, 64, render(64, 64, shade, 4), 4)


def star_contains(x, y, cx, cy, r_out, r_in):
    """Point-in-polygon test for a 5-pointed star (point up)."""
    pts = []
    for k in range(10):
        ang = -math.pi / 2 + k * math.pi / 5
        rad = r_out if k % 2 == 0 else r_in
        pts.append((cx + rad * math.cos(ang), cy + rad * math.sin(ang)))
    inside = False
    j = len(pts) - 1
    for i in range(len(pts)):
        xi, yi = pts[i]
        xj, yj = pts[j]
        if (yi > y) != (yj > y):
            xc = xi + (y - yi) * (xj - xi) / (yj - yi)
            if x < xc:
                inside = not inside
        j = i
    return inside


def league_logo(circle, star, stars):
    ring = darken(circle, 0.4)

    def shade(x, y):
        d = 30.0 - math.hypot(x - 32, y - 32)
        if d < 0:
            return (0, 0, 0, 0.0)
        if d < 2.0:
            return ring + (1.0,)
        if d < 4.0:
            return star + (1.0,)
        if d < 5.5:
            return circle + (1.0,)
        if stars == 1:
            if star_contains(x, y, 32, 33.5, 19, 7.6):
                return star + (1.0,)
        else:
            if (star_contains(x, y, 22, 34, 12, 4.8)
                    or star_contains(x, y, 42, 34, 12, 4.8)):
                return star + (1.0,)
        return circle + (1.0,)

    return encode_png(64, 64, render(64, 64, shade, 4), 4)


def player_photo(primary, secondary, coach):
    bg = tuple(int(v * 0.55 + 255 * 0.45) for v in primary)  # lightened
    figure = (45, 45, 50) if luminance(bg) > 110 else (235, 235, 235)
    shirt = (40, 40, 48) if coach else secondary
    if abs(luminance(shirt) - luminance(bg)) < 40:
        shirt = figure

    def shade(x, y):
        # Shoulders: half ellipse rising from the bottom edge.
        ex, ey = (x - 24) / 22.0, (y - 55) / 22.0
        if ex * ex + ey * ey <= 1.0:
            if coach and y >= 33 and abs(x - 24) < (42 - y) * 0.5:
                return (250, 250, 250, 1.0)  # open white shirt collar (V)
            edge = 1.0 - (ex * ex + ey * ey)
            return (figure if edge < 0.06 else shirt) + (1.0,)
        # Neck
        if abs(x - 24) < 5 and 26 <= y <= 36:
            return figure + (1.0,)
        # Head
        if math.hypot(x - 24, y - 20) <= 10.5:
            return figure + (1.0,)
        return bg + (1.0,)

    return encode_png(48, 48, render(48, 48, shade, 3), 3)


# ---------------------------------------------------------------------------
# Output
# ---------------------------------------------------------------------------

def write_json(path, obj):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8", newline="\n") as f:
        f.write(json.dumps(obj, indent=2, ensure_ascii=False))
        f.write("\n")


def write_bytes(path, data):
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(data)


README = """\
# ligasd sample data

This folder is a static, self-contained copy of the ligasd REST contract for
Ecuador's LigaPro Serie A and Serie B (2025 clubs): `leagues/<league-id>/teams.json`,
`leagues/<league-id>/matches.json` (results with scores),
`leagues/<league-id>/standings.json` (the table after those results),
`teams/<team-id>/players.json` and the PNG
images they reference (paths relative to the base URL), so it can be served by
any static web server or bundled for offline use and tests. Club names are real,
but all players and coaches are fictitious, the results, fixtures and highlight
URLs are invented, and the logos and photos are simple generated placeholders,
not official crests. Do not edit these files by hand: regenerate the whole tree
deterministically by running `python3 scripts/generate-sample-data.py` from the
repository root.
"""


def main():
    if os.path.isdir(OUT):
        shutil.rmtree(OUT)
    os.makedirs(OUT)

    used_names = set()
    for league_index, league in enumerate(LEAGUES):
        teams = []
        for name, primary, secondary, pattern in league["clubs"]:
            tid = slugify(name)
            teams.append({"id": tid, "name": name,
                          "logo": "images/teams/%s.png" % tid,
                          "_colours": (primary, secondary, pattern)})
        ids = [t["id"] for t in teams]
        assert len(ids) == len(set(ids)), ids

        write_json(os.path.join(OUT, "leagues", league["id"], "teams.json"),
                   {"teams": [{k: t[k] for k in ("id", "name", "logo")}
                              for t in teams]})
        matches = make_matches(league, teams)
        write_json(os.path.join(OUT, "leagues", league["id"], "matches.json"),
                   matches)
        write_json(os.path.join(OUT, "leagues", league["id"], "standings.json"),
                   make_standings(teams, matches))

        circle, star = league["badge"]
        write_bytes(os.path.join(OUT, "images", "leagues", league["id"] + ".png"),
                    league_logo(circle, star, league_index + 1))

        for team in teams:
            primary, secondary, pattern = team["_colours"]
            write_bytes(os.path.join(OUT, team["logo"]),
                        team_logo(primary, secondary, pattern))
            players, captain, coach = make_squad(team["id"], used_names)
            write_json(os.path.join(OUT, "teams", team["id"], "players.json"),
                       {"players": players})
            for i, p in enumerate(players):
                if p["photo"] is not None:
                    write_bytes(os.path.join(OUT, p["photo"]),
                                player_photo(primary, secondary, i == coach))

    with open(os.path.join(OUT, "README.md"), "w", encoding="utf-8",
              newline="\n") as f:
        f.write(README)
    print("wrote %s" % os.path.relpath(OUT, os.getcwd()))
    return 0


if __name__ == "__main__":
    sys.exit(main())
