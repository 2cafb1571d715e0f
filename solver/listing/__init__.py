"""Exact methods that list routes: lone trains, pairs of trains, packings and a greedy first answer."""
