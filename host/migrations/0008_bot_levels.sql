-- How well each bot seat plays: 'easy', 'normal' or 'hard' (the search engine's levels,
-- chosen in the lobby). NULL for people's seats, and for bots made before levels existed
-- (they play at the default level). A seat on autopilot plays at the game's host option
-- 'botlevel' instead.
ALTER TABLE seats ADD COLUMN level TEXT;
