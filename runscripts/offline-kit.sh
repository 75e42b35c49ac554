#!/usr/bin/env bash
# A kit for a GPU machine without network that has Python, PyTorch and transformers but not the rest of bct's
# stack (a cluster's compute node, a lent accelerator): the missing packages as wheels for its Python, a
# Java runtime cut down with jlink (what TextWorldExpress and ScienceWorld need), and the generated data.
#   runscripts/offline-kit.sh pack [PYTHON_VERSION]   # here, with network: writes .kit/ (~35 MB), ignored by git
#   KIT_DATA="data/scienceworld-*" runscripts/offline-kit.sh pack   # only the data a run there needs (default: data)
#   source runscripts/offline-kit.sh unpack             # there, in the repository root: installs into /tmp/bct-site
# then e.g. `python3 -m bct.train games=[scienceworld] model=t5-gpu-scratch ...` as usual, or, inside a lease's time
# budget, runscripts/gpu-scienceworld.sh (docs/scienceworld.md).
# The wheels are the versions this checkout's .venv holds; PyTorch, transformers, accelerate, tokenizers,
# numpy, pyarrow, pandas, huggingface_hub, fsspec, xxhash and the like are expected there.
KIT=.kit  # (no set -e here: `unpack` is sourced into the caller's shell)
PACKAGES=(hydra-core omegaconf pydantic pydantic_core annotated-types typing-inspection Pint flexcache flexparser
  platformdirs datasets dill multiprocess py4j scienceworld textworld_express)
case "${1:-}" in
  pack)
    set -euo pipefail
    cd "$(dirname "$0")/.."
    version=${2:-3.12}
    tag=cp${version/./}
    mkdir -p "$KIT/wheels"
    grep -qx "/$KIT/" .git/info/exclude 2>/dev/null || echo "/$KIT/" >>.git/info/exclude
    for name in "${PACKAGES[@]}"; do
      v=$(.venv/bin/python -c "from importlib.metadata import version; print(version('$name'))")
      .venv/bin/pip download -q --no-deps --only-binary=:all: --python-version "$version" --implementation cp \
        --abi "$tag" --abi abi3 --abi none --platform manylinux_2_28_x86_64 --platform manylinux_2_17_x86_64 \
        --platform manylinux2014_x86_64 --platform any -d "$KIT/wheels" "$name==$v"
    done
    .venv/bin/pip wheel -q --no-deps "antlr4-python3-runtime==4.9.3" -w "$KIT/wheels"  # published as source only
    rm -rf /tmp/bct-jre
    jlink --add-modules java.base,java.logging,java.management,java.naming,java.sql,java.xml,jdk.unsupported \
      --strip-debug --no-header-files --no-man-pages --compress=2 --output /tmp/bct-jre
    tar -C /tmp -cJf "$KIT/jre.tar.xz" bct-jre
    # shellcheck disable=SC2086  # KIT_DATA is a list of paths or globs
    [ -d data ] && tar -cJf "$KIT/data.tar.xz" ${KIT_DATA:+data/manifest.json} ${KIT_DATA:-data}
    du -sh "$KIT"
    ;;
  unpack)
    python3 -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade --target /tmp/bct-site "$KIT"/wheels/*.whl
    tar -xJf "$KIT/jre.tar.xz" -C /tmp
    [ -f "$KIT/data.tar.xz" ] && tar -xJf "$KIT/data.tar.xz"
    export PYTHONPATH=/tmp/bct-site:$PWD${PYTHONPATH:+:$PYTHONPATH} PATH=/tmp/bct-jre/bin:$PATH
    echo "[offline-kit] bct's stack from $KIT; java: $(command -v java)"
    ;;
  *) echo "usage: runscripts/offline-kit.sh pack [PYTHON_VERSION] | source runscripts/offline-kit.sh unpack" >&2; return 2 2>/dev/null || exit 2 ;;
esac
