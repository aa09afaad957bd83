"""Headless simulators: play many games with computer strategies and check invariants."""
