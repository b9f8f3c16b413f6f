"""The `hospital` plugin (R15a): crash payments and Doctor's Bills feed a pot; City Hospital takes it."""

from __future__ import annotations

from .conftest import fails, play


def test_R15a_the_pot_starts_empty_and_an_empty_pot_gives_nothing():
    play("""
        setup Ann at 20
        expect hospital 0
        Ann rolls 1 3                 # City Hospital
        expect Ann at 24
        expect Ann cash 20000
    """)


def test_R15a_landing_on_city_hospital_takes_the_whole_pot():
    play("""
        setup hospital 1500
        setup Ann at 20
        expect bank 258500
        Ann rolls 1 3
        expect Ann cash 21500
        expect hospital 0
    """)


def test_R15a_the_pot_is_fed_by_crashes_and_doctors_bills():
    play("""
        setup Ann at 5
        setup Bob at 9
        Ann rolls 2 3                 # Auto Accident: $500 into the pot
        expect hospital 500
        Bob rolls 1 2                 # Stock Exchange
        Bob draws "Doctor's Bill"     # $300 into the pot
        expect hospital 800
        Ann rolls 6 5                 # 21: Kenwood Avenue
        Ann declines
        Ann passes
        Bob passes
        Bob rolls 4 6                 # 22: Milk Route
        Bob passes
        Ann passes
        Ann rolls 1 2                 # 24: City Hospital
        expect Ann cash 20300         # - $500 + $800
        expect hospital 0
    """)


def test_R15a_off_crash_payments_go_to_the_bank():
    play("""
        without hospital
        setup Ann at 5
        setup Bob at 9
        Ann rolls 2 3                 # Auto Accident: $500 to the Bank
        expect bank 260500
        expect hospital 0
        Bob rolls 1 2
        Bob draws "Doctor's Bill"     # $300 to the Bank
        expect bank 260800
        Ann rolls 6 5
        Ann declines
        Ann passes
        Bob passes
        Bob rolls 4 6
        Bob passes
        Ann passes
        Ann rolls 1 2                 # City Hospital: nothing
        expect Ann at 24
        expect Ann cash 19500
    """)
    fails("""
        without hospital
        setup hospital 500
    """, "there is no Hospital pot: the rule 'hospital' is off")
