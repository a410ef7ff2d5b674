#!/usr/bin/env bash
# Build the ClawGym app image.
#
#   images/build.sh [--base IMAGE] [--tag TAG]
#
# The project is built into a wheel on this machine and its dependencies are
# fetched as wheels for the image's Python (whatever the host runs), then
# installed in a build stage with --no-index: the image build itself needs no
# network and the image carries no wheelhouse. The base image is, in order:
#   --base IMAGE / $CLAWGYM_BASE_IMAGE     whatever you name;
#   python:3.11-slim                       when it is present or a registry answers;
#   clawgym/base:bookworm                  otherwise: the air-gapped build. A minimal
#                                          Debian with Python is made once with
#                                          debootstrap (from the machine's Debian
#                                          mirror) and imported; later builds reuse it.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
tag="${CLAWGYM_IMAGE:-clawgym/apps:latest}"
base="${CLAWGYM_BASE_IMAGE:-}"
python="${PYTHON:-$root/.venv/bin/python}"
[ -x "$python" ] || python=python3

while [ $# -gt 0 ]; do
  case "$1" in
    --base) base="$2"; shift 2 ;;
    --tag) tag="$2"; shift 2 ;;
    -h | --help) sed -n '2,15p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
    *) echo "unknown option $1 (see --help)" >&2; exit 2 ;;
  esac
done

step() { printf '\n== %s\n' "$*" >&2; }

docker info >/dev/null 2>&1 || { echo "the Docker engine is not reachable; start it (dockerd) first" >&2; exit 1; }

air_gapped_base() {
  local name=clawgym/base:bookworm
  if docker image inspect "$name" >/dev/null 2>&1; then
    echo "$name"
    return
  fi
  command -v debootstrap >/dev/null || { echo "no registry and no debootstrap: apt-get install debootstrap" >&2; exit 1; }
  local mirror
  mirror="${DEBIAN_MIRROR:-$(sed -n 's/^URIs: *\(http[^ ]*debian\)$/\1/p' /etc/apt/sources.list.d/debian.sources 2>/dev/null | head -n1)}"
  mirror="${mirror:-http://deb.debian.org/debian}"
  local dir
  dir="$(mktemp -d)"
  step "air-gapped base: debootstrap bookworm from $mirror (once, about a minute)" >&2
  debootstrap --variant=minbase --include=python3,python3-venv,ca-certificates bookworm "$dir" "$mirror" >&2
  rm -rf "$dir"/usr/share/doc/* "$dir"/usr/share/man/* "$dir"/usr/share/info/* "$dir"/usr/share/locale/* \
         "$dir"/var/cache/apt/archives/*.deb "$dir"/var/lib/apt/lists/*
  tar -C "$dir" -c . | docker import --change 'CMD ["/bin/bash"]' - "$name" >/dev/null
  rm -rf "$dir"
  echo "$name"
}

if [ -z "$base" ]; then
  if docker image inspect python:3.11-slim >/dev/null 2>&1 || timeout 30 docker pull -q python:3.11-slim >/dev/null 2>&1; then
    base=python:3.11-slim
  else
    base="$(air_gapped_base)"
  fi
fi

# Wheels for the image's interpreter, not the host's: the host may run any Python >= 3.11.
image_python="$(docker run --rm --network none --entrypoint python3 "$base" -c 'import sys; print("%d%d" % sys.version_info[:2])')"
case "$(uname -m)" in
  x86_64 | amd64) arch=x86_64 ;;
  aarch64 | arm64) arch=aarch64 ;;
  *) arch="$(uname -m)" ;;
esac
platforms=()
for tag_ in manylinux2014 manylinux_2_17 manylinux_2_28 manylinux_2_31 manylinux_2_34; do
  platforms+=(--platform "${tag_}_${arch}")
done

wheelhouse="$root/.wheelhouse"
trap 'rm -rf "$wheelhouse"' EXIT
rm -rf "$wheelhouse"
step "wheels for the image's Python ${image_python:0:1}.${image_python:1} ($arch) into .wheelhouse (removed after the build)"
"$python" -m pip wheel --quiet --disable-pip-version-check --no-deps --wheel-dir "$wheelhouse" "$root"
"$python" -c 'import tomllib, sys; print("\n".join(tomllib.load(open(sys.argv[1], "rb"))["project"]["dependencies"]))' \
  "$root/pyproject.toml" >"$wheelhouse/requirements.txt"
# Pure-Python dependencies published as source only get their (py3-none-any) wheel built here first.
source_only=(quotequail)
"$python" -m pip wheel --quiet --disable-pip-version-check --no-deps --wheel-dir "$wheelhouse" \
  $(grep -E "^($(IFS='|'; echo "${source_only[*]}"))\b" "$wheelhouse/requirements.txt" | tr '\n' ' ')
"$python" -m pip download --quiet --disable-pip-version-check --only-binary=:all: \
  --python-version "$image_python" --implementation cp "${platforms[@]}" --find-links "$wheelhouse" \
  --dest "$wheelhouse" --requirement "$wheelhouse/requirements.txt"

step "image $tag from $base"
docker build --quiet --file "$root/images/Dockerfile" --build-arg "BASE=$base" --tag "$tag" "$root" >/dev/null
docker image inspect --format '{{.Id}} {{.Size}}' "$tag" | awk -v t="$tag" '{printf "built %s (%s, %.0f MB)\n", t, substr($1, 1, 19), $2 / 1e6}'
