"""A game's channels, threads and permissions on a server: making them, opening and closing them."""
