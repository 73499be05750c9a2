// `make bench`: each benchmark prints its figures. Run in release mode.
import TravelogCore

print("Travelog benchmarks")
