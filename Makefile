# route18xx — every command a newcomer needs. Only Python >= 3.11 and make are assumed.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: install test serve bench bench-save clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test,cluster]'
	touch $(STAMP)

install: $(STAMP)

test: $(STAMP)
	$(BIN)/python -m pytest -n auto

serve: $(STAMP)
	$(BIN)/route18xx serve --host 127.0.0.1 --port 50051 --http-port 8080 --health-port 50052

bench: $(STAMP)
	$(BIN)/python -m pytest benchmarks --benchmark-only --benchmark-autosave --benchmark-columns=min,median,mean,max,rounds

clean:
	rm -rf $(VENV) .pytest_cache .benchmarks build *.egg-info
