# animre: every target sets up what it needs from nothing.
#   make lab   -> install everything, generate the sample corpus, open JupyterLab on notebooks/
#   make test  -> install everything, lint, check the generated parsers, run the tests
#   make demo  -> run every notebook headless, write executed notebooks + findings to out/
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
PORT   ?= 8888
SAMPLES := data/samples
SEED   ?= 2097

.PHONY: all setup python-env node-env browser samples compile check lab demo test bench fuzz clean

all: setup samples

setup: python-env node-env

python-env: $(VENV)/.installed
$(VENV)/.installed: pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[lab,dev]'
	touch $@

# The official Kaitai Struct compiler (npm kaitai-struct-compiler, pinned in package-lock.json).
node-env: node_modules/.installed
node_modules/.installed: package.json package-lock.json
	@command -v node >/dev/null || { echo "node (Node.js >= 18) is required: install it with your package manager (Debian: apt-get install nodejs npm)"; exit 1; }
	npm ci --no-audit --no-fund --loglevel=error
	touch $@

# Headless Chromium for the browser test (Debian's chromium, driven by playwright with executable_path).
browser:
	@command -v chromium >/dev/null || command -v chromium-browser >/dev/null || { \
	  echo "installing Debian's chromium for the browser test"; \
	  SUDO=$$( [ "$$(id -u)" = 0 ] || echo sudo ); \
	  $$SUDO apt-get update -qq && DEBIAN_FRONTEND=noninteractive $$SUDO apt-get install -y -qq chromium >/dev/null; }

samples: $(SAMPLES)/manifest.json
$(SAMPLES)/manifest.json: $(VENV)/.installed $(shell find animre/samples animre/formats -path "*samples*" -name "*.py")
	$(BIN)/python -m animre samples $(SAMPLES) --seed $(SEED)

compile: setup
	$(BIN)/python -m animre compile

check: setup
	$(BIN)/python -m animre compile --check

ROOT_FLAG := $(shell [ "$$(id -u)" = 0 ] && echo --allow-root)

lab: setup samples
	$(BIN)/jupyter lab --ServerApp.root_dir=notebooks --port=$(PORT) $(ROOT_FLAG) $(LAB_ARGS)

REALDATA ?= $(or $(ANIMRE_REALDATA),../shared/realdata)

demo: setup samples
	$(BIN)/python -m animre demo --out out $(if $(wildcard $(REALDATA)),--real $(REALDATA))

test: setup browser samples
	$(BIN)/ruff check animre tests benchmarks
	$(BIN)/python -m animre compile --check
	$(BIN)/python -m pytest

bench: setup samples
	$(BIN)/python benchmarks/run.py

fuzz: setup samples
	ANIMRE_FUZZ_EXAMPLES=5000 $(BIN)/python -m pytest tests/e2e/test_fuzz.py

clean:
	rm -rf $(VENV) node_modules $(SAMPLES) out .animre-cache
