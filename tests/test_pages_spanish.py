"""A Spanish-speaking family reads every page in Spanish: the pages' own words."""

from __future__ import annotations

import pytest
from translated import read_every_page

# What a Spanish-speaking family reads on each page (the glossary's words: ronda, partida, cerrar).
SPANISH = {
    "home": [
        "Continuar: Ann, Bob, Cy, ronda 2",
        "anotas tú",
        "Empezar una partida nueva",
        "Tus mesas",
        "Partidas terminadas",
        "Crear una mesa",
        "¿Es una fase válida?",
        "¿Se puede añadir esta carta?",
    ],
    "new game": [
        "Nueva partida",
        "Jugadores, en el orden en que están sentados",
        "reparte",
        "Reglas de la casa (opcional)",
        "Puntos por Comodín",
        "Como dicen las reglas elegidas",
        "Empezar la partida",
    ],
    "new game refused": ["La partida no se empezó:"],
    "game": [
        "Ronda 2 · reparte Bob",
        "Anotar la ronda 2",
        "¿Quién cerró?",
        "fase completada",
        "Contar las cartas",
        "Guardar la ronda 2",
        "Deshacer el último cambio",
        "Corregir",
        "Cada jugador anota sus puntos",
        "Vista de mesa",
        "Compartir",
        "Historial",
    ],
    "hand refused": ["No se guardó nada. Corrige lo que está marcado:"],
    "finished game": ["¡Ann gana!", "1.º Ann", "2.º", "Terminado", "Revancha: mismos jugadores"],
    "correct a hand": ["Corregir la ronda 1", "Guardar la corrección", "Borrar la ronda 1"],
    "history": ["Historial", "cambio 2", "1 ronda", "Así está la partida ahora."],
    "share": [
        "Compartir esta partida",
        "Solo mirar",
        "Abrir la página para mirar",
        "Enlace para anotar",
    ],
    "players' codes": ["Cada jugador anota sus puntos", "Un código para todos", "Código de Ann"],
    "who are you": ["¿Quién eres?"],
    "my points": ["Ann: mis puntos", "Cerré", "Enviar a quien anota"],
    "watch": ["Estás mirando esta partida.", "Ronda 2 · reparte Bob", "Imprimir para esta partida"],
    "table view": ["Ronda 2 · reparte Bob", "puntos"],
    "table": [
        "Die Müllers",
        "¿Quién juega?",
        "Empezar una partida nueva",
        "Partidas terminadas",
        "ganador: Ann",
        "10 rondas",
        "Guardar una copia",
        "El enlace de esta mesa",
    ],
    "statistics": [
        "Die Müllers: estadísticas",
        "1 partida terminada, 10,0 rondas por partida en promedio.",
        "Victorias",
        "Racha de victorias más larga",
        "Victorias a lo largo del tiempo",
    ],
    "check a phase": ["¿Es una fase válida?", "Combinación 1", "Todavía no es válida", "Borrar"],
    "check a hit": [
        "¿Se puede añadir esta carta?",
        "grupo",
        "escalera",
        "La carta que quieres añadir",
    ],
    "check a hand": ["¿Mi mano completa la fase?", "Todavía no:", "Tu mano"],
    "import a game": ["Importar una partida"],
    "import a table": ["Importar una mesa"],
    "start a table": ["Crear una mesa", "Nombre de la mesa"],
    "print": ["Imprimir para la mesa"],
    "not found": ["Ir a la página de inicio"],
}


@pytest.mark.exhaustive
def test_every_page_speaks_spanish_with_no_english_template_text_left(client):
    assert read_every_page(client, "es", SPANISH) == {}
