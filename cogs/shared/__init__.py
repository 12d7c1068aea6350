"""What every cog shares: services, which game is meant, answering, text helpers, common flows."""
