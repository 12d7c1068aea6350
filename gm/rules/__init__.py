"""The community's clock and memory as pure rules: plain values and functions, no database, no
Discord, every datetime aware and in UTC. The gamemaster's use cases call them and store their values.
(DeadlineSchedule, a setting users type, is a checked pydantic model: gm.checking.)

- gm.rules.deadlines    DeadlineSchedule (close at HH:MM in a time zone, every N days, weekdays
                        excluded), phase_deadline, slots_from, describe, local_time_text, parse_weekdays
- gm.rules.absences     Absence, check_absence (refusals), move_for_absences (a deadline moved once
                        per absence of a player who must act), upcoming, span_text, announcement_text
- gm.rules.grace        GraceSetting, GraceSeat, GraceUse, grace_at_deadline (an automatic extension
                        for a first miss), announcement_text
- gm.rules.scoring      FinalResult, score (draw-size, Sum-of-Squares, center count), outcome_of
- gm.rules.leaderboard  GameRecord, PlayerRecord, user_stats, leaderboard (/stats), reliability, badge
- gm.rules.fog          the fog of war as gm applies it: what a power's player saw of a phase (its
                        orders, changes, missed orders), when the public results give the counts
- gm.rules.settings     RuleSettings: these rules among a game's settings (a view of
                        gm.settings.GameSettings, which declares, checks and stores them)
"""
