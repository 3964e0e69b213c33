#!/usr/bin/env python3
"""Helpers for scripts/reproduce-seeds.sh (docs/seeds.md): run weft, read its stats, and the few
numbers weft does not print itself (a grid's highest frequency, spring strains from an OBJ frame).
Standard library only."""
import json
import math
import os
import random
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
WEFT = os.environ.get("WEFT", os.path.join(ROOT, "build", "demos", "weft", "weft"))


def scene(name):
    return os.path.join(ROOT, "demos", "scenes", name)


def run(scene_file, *args, env=None):
    """weft run with --stats; returns (exit status, stats dict or None)."""
    with tempfile.TemporaryDirectory() as tmp:
        stats = os.path.join(tmp, "stats.json")
        full_env = dict(os.environ, **(env or {}))
        p = subprocess.run([WEFT, "run", scene_file, "--quiet", "--stats", stats, *args],
                           capture_output=True, text=True, env=full_env)
        data = json.load(open(stats)) if os.path.exists(stats) else None
        return p.returncode, data


# ---- a grid's springs, masses and highest frequency (linearised about the flat rest state) ----

def grid_model(n, size, total_mass, ks, ksh, kb, pins_corners):
    """The springs and lumped masses of buildGrid (solver/model/cloth_model.cpp) for an n x n grid."""
    h = size / (n - 1)
    pos = [(c * h, 0.0, r * h) for r in range(n) for c in range(n)]
    idx = lambda r, c: r * n + c
    springs = []
    for r in range(n):
        for c in range(n):
            if c + 1 < n: springs.append((idx(r, c), idx(r, c + 1), ks))
            if r + 1 < n: springs.append((idx(r, c), idx(r + 1, c), ks))
    for r in range(n - 1):
        for c in range(n - 1):
            springs.append((idx(r, c), idx(r + 1, c + 1), ksh))
            springs.append((idx(r, c + 1), idx(r + 1, c), ksh))
    for r in range(n):
        for c in range(n):
            if c + 2 < n: springs.append((idx(r, c), idx(r, c + 2), kb))
            if r + 2 < n: springs.append((idx(r, c), idx(r + 2, c), kb))
    mass = [0.0] * (n * n)
    for r in range(n - 1):
        for c in range(n - 1):
            for tri in ((idx(r, c), idx(r + 1, c), idx(r, c + 1)), (idx(r, c + 1), idx(r + 1, c), idx(r + 1, c + 1))):
                for i in tri: mass[i] += 1.0
    scale = total_mass / sum(mass)
    mass = [m * scale for m in mass]
    corners = [idx(0, 0), idx(0, n - 1), idx(n - 1, n - 1), idx(n - 1, 0)][:pins_corners]
    return pos, springs, mass, set(corners)


def omega_max(n, size, total_mass, ks, ksh, kb, pins_corners, iterations=400):
    """sqrt of the largest eigenvalue of M^-1 K by power iteration on M^-1/2 K M^-1/2 (rad/s)."""
    pos, springs, mass, pinned = grid_model(n, size, total_mass, ks, ksh, kb, pins_corners)
    units = []
    for i, j, k in springs:
        d = [pos[i][a] - pos[j][a] for a in range(3)]
        l = math.sqrt(sum(x * x for x in d))
        units.append((i, j, k, [x / l for x in d]))
    inv_sqrt_m = [0.0 if i in pinned else 1.0 / math.sqrt(m) for i, m in enumerate(mass)]
    rng = random.Random(1)
    x = [[rng.uniform(-1, 1) * (i not in pinned) for _ in range(3)] for i in range(len(mass))]
    lam = 0.0
    for _ in range(iterations):
        y = [[0.0, 0.0, 0.0] for _ in mass]
        u = [[x[i][a] * inv_sqrt_m[i] for a in range(3)] for i in range(len(mass))]
        for i, j, k, nrm in units:
            s = k * sum(nrm[a] * (u[i][a] - u[j][a]) for a in range(3))
            for a in range(3):
                y[i][a] += s * nrm[a]
                y[j][a] -= s * nrm[a]
        y = [[y[i][a] * inv_sqrt_m[i] for a in range(3)] for i in range(len(mass))]
        norm = math.sqrt(sum(v * v for row in y for v in row))
        lam = norm / math.sqrt(sum(v * v for row in x for v in row))
        x = [[v / norm for v in row] for row in y]
    return math.sqrt(lam)


# ---- spring strains of a grid frame written by --obj-dir ----

def obj_vertices(path):
    return [tuple(map(float, line.split()[1:4])) for line in open(path) if line.startswith("v ")]


def structural_strains(vertices, width, height, rest_x, rest_y):
    idx = lambda r, c: r * width + c
    out = []
    for r in range(height):
        for c in range(width):
            for (r2, c2, rest) in ((r, c + 1, rest_x), (r + 1, c, rest_y)):
                if r2 < height and c2 < width:
                    a, b = vertices[idx(r, c)], vertices[idx(r2, c2)]
                    out.append(math.dist(a, b) / rest - 1.0)
    return out


def last_obj(folder):
    objs = sorted(f for f in os.listdir(folder) if f.endswith(".obj"))
    return os.path.join(folder, objs[-1])



def stable(scene_file, integrator, substeps, *extra):
    rc, _ = run(scene_file, "--backend", "cpu", "--integrator", integrator, "--substeps", str(substeps), *extra)
    if rc not in (0, 3):
        raise RuntimeError(f"weft run exited {rc}")
    return rc == 0


def min_stable_substeps(scene_file, integrator, start, *extra, limit=10000):
    """The fewest substeps (within about 3 %) at which a run of the scene ends without exploding."""
    lo, hi = 0, max(1, start)
    while not stable(scene_file, integrator, hi, *extra):
        lo, hi = hi, hi * 2
        if hi > limit:
            return None
    while hi - lo > 1 and (hi - lo) > hi // 32:
        mid = (lo + hi) // 2
        if stable(scene_file, integrator, mid, *extra):
            hi = mid
        else:
            lo = mid
    return hi


# ---- seed 002: the implicit system's diagonal blocks with and without dropping the compressed term ----

def sym3_min_eigenvalue(a):
    """Smallest eigenvalue of a symmetric 3x3 matrix (closed form)."""
    p1 = a[0][1] ** 2 + a[0][2] ** 2 + a[1][2] ** 2
    q = (a[0][0] + a[1][1] + a[2][2]) / 3.0
    if p1 == 0.0:
        return min(a[0][0], a[1][1], a[2][2])
    p2 = sum((a[i][i] - q) ** 2 for i in range(3)) + 2.0 * p1
    p = math.sqrt(p2 / 6.0)
    b = [[(a[i][j] - (q if i == j else 0.0)) / p for j in range(3)] for i in range(3)]
    det = (b[0][0] * (b[1][1] * b[2][2] - b[1][2] * b[2][1]) - b[0][1] * (b[1][0] * b[2][2] - b[1][2] * b[2][0])
           + b[0][2] * (b[1][0] * b[2][1] - b[1][1] * b[2][0]))
    r = max(-1.0, min(1.0, det / 2.0))
    phi = math.acos(r) / 3.0
    return q + 2.0 * p * math.cos(phi + 2.0 * math.pi / 3.0)


def definiteness(vertices, n, size, total_mass, ks, ksh, kb, c, h):
    """For a grid frame: the springs compressed, and the particles whose diagonal 3x3 block of the
    implicit-Euler matrix A = M + h D + h^2 K has a negative eigenvalue when a compressed spring
    keeps its transverse term k (1 - L/l) < 0, against weft's, which drops it
    (shaders/physics.h, springStiffnessBlock). u^T A_ii u < 0 is a direction in which A itself is
    negative: A is then indefinite and CG's step length can divide by zero or go negative."""
    rest, springs, mass, _ = grid_model(n, size, total_mass, ks, ksh, kb, 0)
    blocks = {kept: [[[m * (i == j) for j in range(3)] for i in range(3)] for m in mass] for kept in (True, False)}
    compressed = []
    for i, j, k in springs:
        rest_len = math.dist(rest[i], rest[j])
        d = [vertices[i][a] - vertices[j][a] for a in range(3)]
        l = math.sqrt(sum(x * x for x in d))
        nrm = [x / l for x in d]
        t = 1.0 - rest_len / l
        if t < 0.0:
            compressed.append(1.0 - l / rest_len)
        for kept in (True, False):
            tt = t if kept else max(t, 0.0)
            for p in (i, j):
                for a in range(3):
                    for b in range(3):
                        nn = nrm[a] * nrm[b]
                        blocks[kept][p][a][b] += h * c * nn + h * h * k * (nn + tt * ((a == b) - nn))
    result = {"springs": len(springs), "compressed": len(compressed),
              "medianCompression": statistics.median(compressed) if compressed else 0.0,
              "maxCompression": max(compressed) if compressed else 0.0}
    for kept, label in ((True, "kept"), (False, "dropped")):
        eig = [sym3_min_eigenvalue(blk) / m for blk, m in zip(blocks[kept], mass)]
        result["negativeBlocks_" + label] = sum(1 for e in eig if e < 0.0)
        result["worstEigenvalueOverMass_" + label] = min(eig)
    return result


# ---- pictures: a box-filtered copy of a weft PNG, smaller for the docs (standard library only) ----

def _read_png(path):
    import struct, zlib
    data = open(path, "rb").read()
    assert data[:8] == b"\x89PNG\r\n\x1a\n", path
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        if kind == b"IHDR":
            width, height, depth, color, _, _, interlace = struct.unpack(">IIBBBBB", body)
            assert depth == 8 and color in (2, 6) and interlace == 0, "8-bit RGB(A), not interlaced"
            channels = 4 if color == 6 else 3
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    raw = zlib.decompress(idat)
    stride = width * channels
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f, line = raw[y * (stride + 1)], bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for x in range(stride):
            a = line[x - channels] if x >= channels else 0
            b = prev[x]
            c = prev[x - channels] if x >= channels else 0
            if f == 1: line[x] = (line[x] + a) & 255
            elif f == 2: line[x] = (line[x] + b) & 255
            elif f == 3: line[x] = (line[x] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return width, height, channels, rows


def shrink_png(src, dst, factor=3):
    """Writes an RGB PNG of src averaged over factor x factor blocks."""
    import struct, zlib
    width, height, channels, rows = _read_png(src)
    w, h = width // factor, height // factor
    out = bytearray()
    for y in range(h):
        out.append(0)
        block = rows[y * factor:(y + 1) * factor]
        for x in range(w):
            for ch in range(3):
                total = sum(r[(x * factor + i) * channels + ch] for r in block for i in range(factor))
                out.append(total // (factor * factor))

    def chunk(kind, body):
        return struct.pack(">I", len(body)) + kind + body + struct.pack(">I", zlib.crc32(kind + body) & 0xFFFFFFFF)
    png = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 2, 0, 0, 0))
           + chunk(b"IDAT", zlib.compress(bytes(out), 9)) + chunk(b"IEND", b""))
    open(dst, "wb").write(png)


# ---- the experiments of docs/seeds.md, one function each ----

def say(*parts):
    print(*parts, flush=True)


def seed001_blowup():
    sc = scene("seed001_blowup.json")
    w = omega_max(16, 1.0, 0.2, 500, 100, 10, 2)
    frame = 1 / 60
    say(f"seed001_blowup: omega_max {w:.0f} rad/s (M^-1 K of the flat grid); "
        f"symplectic Euler needs h < 2/omega = {2 / w * 1e3:.3f} ms ({math.ceil(frame * w / 2)} substeps), "
        f"RK4 h < 2.83/omega = {2.8284 / w * 1e3:.3f} ms ({math.ceil(frame * w / 2.8284)} substeps), "
        f"explicit Euler diverges at any h without damping")
    for integrator, start in (("symplectic-euler", 16), ("rk4", 8), ("imex", 16)):
        say(f"  {integrator}: fewest substeps that survive 120 frames: {min_stable_substeps(sc, integrator, start)}")
    for substeps in (20, 100, 1000, 4000):
        rc, d = run(sc, "--backend", "cpu", "--integrator", "explicit-euler", "--substeps", str(substeps))
        step = d["explosionStep"]
        say(f"  explicit-euler x {substeps}: exit {rc}, exploded at step {step} "
            f"(t = {step * frame / substeps if step else float('nan'):.3f} s)")
    for integrator in ("implicit-cg", "newton-chebyshev", "verlet"):
        rc, d = run(sc, "--backend", "cpu", "--integrator", integrator, "--substeps", "1")
        solve = d.get("solve")
        its = f", solve iterations median {solve['medianIterations']}, most {solve['maxIterations']}" if solve else ""
        say(f"  {integrator} x 1 (h omega = {frame * w:.1f}): exit {rc}, final KE {d['finalKineticEnergy']:.3f} J{its}")


def seed001_realtime(backend="cpu", reps=5):
    """Largest grid at 16.7 ms a frame per integrator, on explicit_vs_implicit.json (1/60 s frames).
    The CPU backend runs on one thread; the substeps are the fewest the CPU backend holds."""
    sc = scene("explicit_vs_implicit.json")
    explicit_grids, implicit_grids = ((24, 32), (48, 56)) if backend == "cpu" else ((12, 16), (8, 12))
    cases = []
    for integrator in ("explicit-euler", "symplectic-euler"):
        for n in explicit_grids:
            s = min_stable_substeps(sc, integrator, 16, "--grid", str(n), "--frames", "120")
            say(f"  {integrator} at {n}x{n}: fewest stable substeps (120 frames) {s}")
            cases.append((n, integrator, s))
    for n in implicit_grids:
        rc, d = run(sc, "--backend", "cpu", "--integrator", "implicit-cg", "--substeps", "1", "--grid", str(n), "--frames", "120")
        say(f"  implicit-cg at {n}x{n} x 1: exit {rc}, CG iterations median {d['solve']['medianIterations']}")
        cases.append((n, "implicit-cg", 1))
    times = {c: [] for c in cases}
    device = None
    for _ in range(reps):  # interleaved, so that every case sees the same load
        for c in cases:
            n, integrator, s = c
            rc, d = run(sc, "--backend", backend, "--integrator", integrator, "--substeps", str(s), "--grid", str(n),
                        "--frames", "40", env={"WEFT_THREADS": "1"})
            times[c].append(d["medianWallMsPerStep"] * s)
            device = d["device"]
    say(f"  timed on {backend}: {device}")
    largest = {}
    for integrator in ("explicit-euler", "symplectic-euler", "implicit-cg"):
        (n0, _, s0), (n1, _, s1) = [c for c in cases if c[1] == integrator]
        t0, t1 = statistics.median(times[(n0, integrator, s0)]), statistics.median(times[(n1, integrator, s1)])
        power = math.log(t1 / t0) / math.log(n1 / n0)
        largest[integrator] = n0 * (16.7 / t0) ** (1 / power)
        say(f"  {integrator}: {n0}x{n0} x {s0} {t0:.2f} ms/frame, {n1}x{n1} x {s1} {t1:.2f} ms/frame "
            f"(cost ~ N^{power:.1f}): 16.7 ms at N = {largest[integrator]:.1f}")
    for explicit in ("explicit-euler", "symplectic-euler"):
        r = largest["implicit-cg"] / largest[explicit]
        say(f"  implicit-cg / {explicit}: {r:.2f}x the side, {r * r:.2f}x the particles")


def seed001_realtime_lavapipe():
    seed001_realtime("gpu")


def seed000_adaptive():
    sc = scene("seed000_stiff.json")
    w = omega_max(16, 1.0, 0.2, 5000, 1250, 100, 2)
    say(f"seed000_stiff: omega_max {w:.0f} rad/s, 1/omega = {1e3 / w:.3f} ms, 2/omega = {2e3 / w:.3f} ms")
    rc, d = run(sc, "--backend", "cpu", "--stats-steps", "all")
    steps = d["solve"]["steps"]
    per_frame, t, frame, count = [], 0.0, 0, 0
    for s in steps:
        t += s["dt"]
        count += 1
        if t >= d["frameDt"] * (frame + 1) * (1 - 1e-6):
            per_frame.append(count)
            count, frame = 0, frame + 1
    dts = sorted(s["dt"] for s in steps)
    say(f"  nonlinear-cg, 1/60 s asked: exit {rc}, {len(steps)} accepted steps in {d['frames']} frames "
        f"(per frame: first {per_frame[0]}, median {statistics.median(per_frame)}, last {per_frame[-1]}), "
        f"first accepted step {steps[0]['dt'] * 1e3:.3f} ms, median step {statistics.median(dts) * 1e3:.3f} ms, "
        f"shortest {dts[0] * 1e3:.5f} ms; iterations median {d['solve']['medianIterations']}, most {d['solve']['maxIterations']}; "
        f"final KE {d['finalKineticEnergy']:.4f} J, lowest point y = {d['positionMin'][1]:.3f} m, "
        f"{d['medianWallMsPerStep']:.1f} ms per frame (CPU)")
    rc, d = run(sc, "--backend", "cpu", "--integrator", "symplectic-euler", "--substeps", "1")
    say(f"  symplectic-euler x 1 on the same scene: exit {rc}, exploded at step {d['explosionStep']}")
    s = min_stable_substeps(sc, "symplectic-euler", 32)
    rc, d = run(sc, "--backend", "cpu", "--integrator", "symplectic-euler", "--substeps", str(s))
    say(f"  symplectic-euler: fewest stable substeps {s} (h = {1e3 / 60 / s:.3f} ms), "
        f"{d['medianWallMsPerStep'] * s:.2f} ms per frame (CPU)")


def seed002_definiteness():
    """sphere_drape.json under implicit-cg: how many springs are compressed, and what keeping their
    transverse term would do to the implicit system's diagonal blocks."""
    with tempfile.TemporaryDirectory() as tmp:
        rc, d = run(scene("sphere_drape.json"), "--backend", "cpu", "--integrator", "implicit-cg", "--substeps", "2",
                    "--obj-dir", tmp)
        verts = obj_vertices(last_obj(tmp))
    h = 1 / 60 / 2
    r = definiteness(verts, 48, 1.0, 0.3, 2000, 500, 50, 0.5, h)
    say(f"seed002: sphere_drape.json, implicit-cg x 2 (h = {h * 1e3:.2f} ms), last frame: exit {rc}, "
        f"CG iterations median {d['solve']['medianIterations']}, most {d['solve']['maxIterations']}, "
        f"unconverged {d['solve']['unconvergedSteps']}")
    say(f"  {r['compressed']} of {r['springs']} springs compressed (median {r['medianCompression'] * 100:.2f} %, "
        f"most {r['maxCompression'] * 100:.1f} %)")
    say(f"  diagonal blocks of M + hD + h^2 K with a negative eigenvalue: {r['negativeBlocks_kept']} of 2304 "
        f"keeping the compressed term (worst eigenvalue / mass {r['worstEigenvalueOverMass_kept']:.2f}), "
        f"{r['negativeBlocks_dropped']} dropping it (weft; worst {r['worstEigenvalueOverMass_dropped']:.2f})")


def seed002_accelerators():
    """CG against Chebyshev-accelerated and plain Jacobi on the same implicit step (weft bench's
    32x32 cloth, one 1/60 s step a frame, tolerance 1e-3, caps high enough not to bind)."""
    say("  weft bench, CPU, 32x32, one 1/60 s step, tolerance 1e-3; | grid | particles | integrator | backend | "
        "ms/step | GPU | M particle-steps/s | iterations | max residual | copy GB/s |")
    for rho in ("0.999", "0"):
        out = subprocess.run([WEFT, "bench", "--grids", "32", "--integrators", "implicit-cg,newton-chebyshev",
                              "--chebyshev-rho", rho, "--max-iterations", "4000", "--backends", "cpu",
                              "--substeps", "1", "--frames", "3"], capture_output=True, text=True).stdout
        rows = [l for l in out.splitlines() if l.startswith("| 32")]
        say(f"  chebyshevRho {rho}:")
        say("\n".join("  " + l for l in rows if rho == "0.999" or "newton" in l))


def seed003_iterations():
    """Structural stretch of the Verlet curtain's last frame at 5, 10, 20 and 40 Jacobi iterations
    (plain, relaxationRho 0), and at 10 with the Chebyshev weights (relaxationRho 0.95)."""
    sc = scene("seed003_curtain.json")
    with tempfile.TemporaryDirectory() as tmp:
        accelerated = os.path.join(tmp, "seed003_curtain_rho.json")
        data = json.load(open(sc))
        data["solver"]["relaxationRho"] = 0.95
        json.dump(data, open(accelerated, "w"))
        for label, scene_file, its in [("", sc, n) for n in (5, 10, 20, 40)] + [(", relaxationRho 0.95", accelerated, 10)]:
            frames = os.path.join(tmp, f"frames{its}{label != ''}")
            os.mkdir(frames)
            rc, d = run(scene_file, "--backend", "cpu", "--iterations", str(its), "--obj-dir", frames)
            verts = obj_vertices(last_obj(frames))
            strains = structural_strains(verts, 32, 32, 1 / 31, 1 / 31)
            # vertical springs only, averaged along each row of them: from the pinned edge down
            rows = [statistics.mean(math.dist(verts[r * 32 + c], verts[(r + 1) * 32 + c]) * 31 - 1 for c in range(32))
                    for r in range(31)]
            say(f"  seed003_curtain, verlet x {its} iterations{label}: exit {rc}, structural stretch mean "
                f"{statistics.mean(strains) * 100:.2f} %, max {max(strains) * 100:.2f} %, "
                f"lowest point y = {d['positionMin'][1]:.3f} m (rest 1.000), {d['medianWallMsPerStep']:.3f} ms/step; "
                f"vertical springs, top three rows {', '.join(f'{x * 100:.0f}' for x in rows[:3])} %, "
                f"bottom row {rows[-1] * 100:.1f} %")


def seed004_corners(png_dir=None):
    """Each corner preset on the CPU backend; with png_dir, its last frame rendered on the Vulkan
    device and written there a third of the size (docs/images/seed004_corners_N.png)."""
    for n in (1, 2, 3, 4):
        with tempfile.TemporaryDirectory() as tmp:
            full = os.path.join(tmp, "full.png")
            rc, d = run(scene(f"seed004_corners{n}.json"), "--backend", "cpu", *(["--png", full] if png_dir else []))
            if png_dir and rc == 0:
                shrink_png(full, os.path.join(png_dir, f"seed004_corners_{n}.png"))
        say(f"  seed004_corners{n}.json (rk4 x 50): exit {rc}, final KE {d['finalKineticEnergy']:.2e} J, "
            f"bounds y {d['positionMin'][1]:.3f}..{d['positionMax'][1]:.3f} m, {d['medianWallMsPerStep']:.3f} ms/step")


def seed004_rk4_fps(reps=5):
    """RK4 steps on the CPU backend, 1 and 2 threads, the corner scene at 32x32 and 64x64."""
    sc = scene("seed004_corners2.json")
    w = omega_max(32, 1.0, 0.3, 1000, 250, 20, 2)
    fewest = min_stable_substeps(sc, "rk4", 16)
    say(f"  seed004_corners2 (32x32): omega_max {w:.0f} rad/s, RK4 needs h omega < 2.83: {math.ceil(w / 60 / 2.8284)} "
        f"substeps of 1/60 s; fewest that survive its 180 frames: {fewest}; the scene runs 50")
    cases = [(n, t) for n in (32, 64) for t in ("1", "2")]
    times = {c: [] for c in cases}
    for _ in range(reps):
        for n, t in cases:
            rc, d = run(sc, "--backend", "cpu", "--grid", str(n), "--frames", "20", env={"WEFT_THREADS": t})
            times[(n, t)].append(d["medianWallMsPerStep"])
    for n, t in cases:
        ms = statistics.median(times[(n, t)])
        frame = (f"; {1000 / (fewest * ms):.1f} fps at {fewest} steps a frame, {1000 / (50 * ms):.1f} at 50"
                 if n == 32 else "")
        say(f"  rk4 {n}x{n}, {t} thread(s): {ms:.3f} ms per RK4 step (median of {reps}) = "
            f"{1000 / ms:.0f} steps/s{frame}")


EXPERIMENTS = {
    "seed001_blowup": seed001_blowup,
    "seed001_realtime": seed001_realtime,
    "seed001_realtime_lavapipe": seed001_realtime_lavapipe,
    "seed000_adaptive": seed000_adaptive,
    "seed002_definiteness": seed002_definiteness,
    "seed002_accelerators": seed002_accelerators,
    "seed003_iterations": seed003_iterations,
    "seed004_corners": seed004_corners,
    "seed004_rk4_fps": seed004_rk4_fps,
}

if __name__ == "__main__":
    args = sys.argv[1:]
    pictures = "--pictures" in args
    names = [a for a in args if a != "--pictures"] or list(EXPERIMENTS)
    unknown = [n for n in names if n not in EXPERIMENTS]
    if unknown:
        sys.exit(f"seeds.py: unknown experiment {unknown[0]} (known: {', '.join(EXPERIMENTS)})")
    for name in names:
        say(f"== {name}")
        if name == "seed004_corners" and pictures:
            seed004_corners(os.path.join(ROOT, "docs", "images"))
        else:
            EXPERIMENTS[name]()
