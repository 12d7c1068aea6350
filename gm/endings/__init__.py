"""How games end: solos, short games, draws and concessions voted in secret, the final post."""
