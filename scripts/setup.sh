#!/usr/bin/env bash
# Installs everything Reconcile Lab needs, idempotently and quickly when it is already there:
#   - Debian packages (compilers, CMake/Ninja, GoogleTest, benchmark, nlohmann-json, yaml-cpp,
#     jemalloc, emscripten, chromium, fonts, fonttools);
#   - the Debian SOURCE packages compiled into the WebAssembly build (imgui from trixie, yaml-cpp
#     from bookworm) and into every build (the QuickJS engine from trixie, and musl from bookworm
#     for its libm, so Math gives the same bits natively and in WebAssembly: core/js/README.md),
#     via deb-src entries only, unpacked into .deps/src/{imgui,yaml-cpp,quickjs,musl};
#   - a copy of nlohmann's headers in .deps/include (so emcc never sees /usr/include);
#   - pinned npm packages (scripts/npm/package-lock.json) in .deps/npm, without any browser download.
# Everything fetched lives in the ignored .deps/ folder. Uses sudo when not root.
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
DEPS="$ROOT/.deps"
SUDO=""
if [ "$(id -u)" -ne 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive

IMGUI_VERSION="1.90.1+ds-1"      # trixie
YAMLCPP_VERSION="0.7.0+dfsg-8"   # bookworm
QUICKJS_VERSION="2025.04.26-1"   # trixie
MUSL_VERSION="1.2.3-1"           # bookworm (Debian has no openlibm source package)
SRC_LIST=/etc/apt/sources.list.d/rlab-deb-src.sources

say() { printf '[setup] %s\n' "$*"; }

installed() {  # installed PKG: true when dpkg knows PKG as installed
  [ "$(dpkg-query -W -f='${db:Status-Status}' "$1" 2>/dev/null || true)" = "installed" ]
}

APT_UPDATED=0
NEED_UPDATE=0
apt_update() {
  if [ "$APT_UPDATED" -eq 0 ]; then
    say "apt-get update"
    $SUDO apt-get update -qq
    APT_UPDATED=1
  fi
}

# --- 1. deb-src entries (source indexes only: no `deb` line, so no trixie binaries) ---------------
read -r -d '' SRC_CONTENT <<'EOF' || true
# Added by Reconcile Lab scripts/setup.sh: source packages only (imgui and quickjs from
# trixie, yaml-cpp and musl from bookworm) compiled into the builds. Types is deb-src only, so apt never
# installs trixie binaries from here.
Types: deb-src
URIs: http://deb.debian.org/debian
Suites: bookworm trixie
Components: main
Signed-By: /usr/share/keyrings/debian-archive-keyring.gpg
EOF

mkdir -p "$DEPS/apt-src" "$DEPS/src" "$DEPS/include"

need_src=0
[ "$(cat "$DEPS/src/imgui.stamp" 2>/dev/null || true)" = "$IMGUI_VERSION" ] || need_src=1
[ "$(cat "$DEPS/src/yaml-cpp.stamp" 2>/dev/null || true)" = "$YAMLCPP_VERSION" ] || need_src=1
[ "$(cat "$DEPS/src/quickjs.stamp" 2>/dev/null || true)" = "$QUICKJS_VERSION" ] || need_src=1
[ "$(cat "$DEPS/src/musl.stamp" 2>/dev/null || true)" = "$MUSL_VERSION" ] || need_src=1

if [ "$need_src" -eq 1 ]; then
  if [ "$(cat "$SRC_LIST" 2>/dev/null || true)" != "$SRC_CONTENT" ]; then
    say "writing $SRC_LIST (deb-src bookworm trixie)"
    printf '%s\n' "$SRC_CONTENT" | $SUDO tee "$SRC_LIST" >/dev/null
    APT_UPDATED=0   # the next apt step must see the new source indexes
    NEED_UPDATE=1
  fi
fi

# --- 2. Debian binary packages -------------------------------------------------------------------
PKGS=(build-essential cmake ninja-build clang lld libclang-rt-14-dev
      googletest libgtest-dev libgmock-dev libbenchmark-dev
      nlohmann-json3-dev libyaml-cpp-dev libjemalloc-dev emscripten chromium
      python3 fonts-noto-cjk fonts-dejavu-core fonttools gzip dpkg-dev)
if ! command -v node >/dev/null 2>&1; then PKGS+=(nodejs); fi
if ! command -v npm >/dev/null 2>&1; then PKGS+=(npm); fi

missing=()
for p in "${PKGS[@]}"; do installed "$p" || missing+=("$p"); done
if [ "${#missing[@]}" -gt 0 ]; then
  apt_update
  say "apt-get install ${missing[*]}"
  $SUDO apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
else
  say "Debian packages: all ${#PKGS[@]} present"
fi

# --- 3. source packages into .deps/src/{imgui,yaml-cpp,quickjs,musl} -----------------------------------------
fetch_source() {  # fetch_source PKG VERSION DIRNAME
  local pkg="$1" ver="$2" dir="$3"
  local stamp="$DEPS/src/$dir.stamp"
  if [ "$(cat "$stamp" 2>/dev/null || true)" = "$ver" ] && [ -d "$DEPS/src/$dir" ]; then
    say "source $pkg $ver: present"
    return
  fi
  local upver="${ver%-*}"; upver="${upver#*:}"
  local dsc="$DEPS/apt-src/${pkg}_${ver#*:}.dsc"
  if [ ! -f "$dsc" ]; then
    if ! apt-cache showsrc "$pkg" 2>/dev/null | grep -qx "Version: $ver"; then apt_update; fi
    say "apt-get source --download-only $pkg=$ver"
    # apt warns when root downloads into a folder _apt cannot write; harmless here.
    (cd "$DEPS/apt-src" && apt-get source -qq --download-only "$pkg=$ver" 2>&1 \
       | grep -v -e "unsandboxed as root" -e "^$" || true)
    [ -f "$dsc" ] || { echo "setup.sh: could not download $pkg=$ver" >&2; exit 1; }
  fi
  say "unpacking $pkg $upver into .deps/src/$dir"
  rm -rf "$DEPS/src/$dir"
  # Checksums were verified by apt against the signed Sources index; skip the uploader signature.
  dpkg-source --no-check -q -x "$dsc" "$DEPS/src/$dir" >/dev/null
  rm -f "$DEPS/src/${pkg}_"*.orig.tar.*   # dpkg-source leaves a copy beside the tree
  printf '%s\n' "$ver" > "$stamp"
}
if [ "$NEED_UPDATE" -eq 1 ]; then apt_update; fi
fetch_source imgui "$IMGUI_VERSION" imgui
fetch_source yaml-cpp "$YAMLCPP_VERSION" yaml-cpp
fetch_source quickjs "$QUICKJS_VERSION" quickjs
fetch_source musl "$MUSL_VERSION" musl

# --- 4. nlohmann headers for emcc -----------------------------------------------------------------
NLOHMANN_VER="$(dpkg-query -W -f='${Version}' nlohmann-json3-dev)"
if [ "$(cat "$DEPS/include/nlohmann.stamp" 2>/dev/null || true)" != "$NLOHMANN_VER" ] \
   || [ ! -f "$DEPS/include/nlohmann/json.hpp" ]; then
  say "copying /usr/include/nlohmann to .deps/include/nlohmann"
  rm -rf "$DEPS/include/nlohmann"
  cp -r /usr/include/nlohmann "$DEPS/include/nlohmann"
  printf '%s\n' "$NLOHMANN_VER" > "$DEPS/include/nlohmann.stamp"
else
  say "nlohmann headers: present"
fi

# --- 5. npm packages (pinned by scripts/npm/package-lock.json; never a browser download) ----------
NPM_DIR="$DEPS/npm"
LOCK_SUM="$(cat "$ROOT/scripts/npm/package.json" "$ROOT/scripts/npm/package-lock.json" | sha256sum | cut -d' ' -f1)"
if [ "$(cat "$NPM_DIR/.stamp" 2>/dev/null || true)" != "$LOCK_SUM" ] \
   || [ ! -d "$NPM_DIR/node_modules/playwright-core" ]; then
  say "npm ci (playwright-core) into .deps/npm"
  mkdir -p "$NPM_DIR"
  cp "$ROOT/scripts/npm/package.json" "$ROOT/scripts/npm/package-lock.json" "$NPM_DIR/"
  (cd "$NPM_DIR" && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 npm ci --no-audit --no-fund --loglevel=error >/dev/null)
  printf '%s\n' "$LOCK_SUM" > "$NPM_DIR/.stamp"
else
  say "npm packages: present"
fi

say "done"
