package validate

import (
	"errors"
	"fmt"
	"strings"
	"time"
)

// RFC3339DateTime checks that s is an RFC 3339 date-time, the JSON Schema
// "date-time" format: "2006-01-02T15:04:05Z" or with a fraction of a second
// and a numeric offset, "2006-01-02T15:04:05.999+07:00". The "T" and "Z"
// may be lower case, as RFC 3339 allows. A leap second (second 60) is
// accepted only when it falls at 23:59:60 UTC once the offset is applied;
// the date of the leap second is not checked against the published list.
func RFC3339DateTime(s string) error {
	const form = `give YYYY-MM-DDTHH:MM:SSZ or YYYY-MM-DDTHH:MM:SS+HH:MM, such as "2024-05-01T13:45:00Z"`
	if s == "" {
		return fmt.Errorf("date-time is empty; %s", form)
	}
	if len(s) < 11 || (s[10] != 'T' && s[10] != 't') {
		return fmt.Errorf("date-time %q is not RFC 3339; %s", s, form)
	}
	if err := checkDate(s[:10]); err != nil {
		return fmt.Errorf("date-time %q: %v", s, err)
	}
	if err := checkFullTime(s[11:]); err != nil {
		return fmt.Errorf("date-time %q: %v", s, err)
	}
	return nil
}

// Date checks that s is an RFC 3339 full-date, the JSON Schema "date"
// format: YYYY-MM-DD with a real month and a day that exists in that month
// (leap years included).
func Date(s string) error {
	if s == "" {
		return fmt.Errorf(`date is empty; give YYYY-MM-DD, such as "2024-05-01"`)
	}
	if err := checkDate(s); err != nil {
		return fmt.Errorf("date %q: %v", s, err)
	}
	return nil
}

// Time checks that s is an RFC 3339 full-time, the JSON Schema "time"
// format: HH:MM:SS with an optional fraction and a required offset, such as
// "13:45:00Z" or "13:45:00.5+02:00". Leap seconds follow the rule of
// [RFC3339DateTime].
func Time(s string) error {
	if s == "" {
		return fmt.Errorf(`time is empty; give HH:MM:SS with an offset, such as "13:45:00Z"`)
	}
	if err := checkFullTime(s); err != nil {
		return fmt.Errorf("time %q: %v", s, err)
	}
	return nil
}

// checkDate validates YYYY-MM-DD.
func checkDate(s string) error {
	if len(s) != 10 || s[4] != '-' || s[7] != '-' {
		return fmt.Errorf(`date part is not YYYY-MM-DD, such as "2024-05-01"`)
	}
	year, ok1 := digits(s[0:4])
	month, ok2 := digits(s[5:7])
	day, ok3 := digits(s[8:10])
	if !ok1 || !ok2 || !ok3 {
		return fmt.Errorf(`date part is not YYYY-MM-DD, such as "2024-05-01"`)
	}
	if month < 1 || month > 12 {
		return fmt.Errorf("month %02d does not exist; months run 01 to 12", month)
	}
	// Day 0 of the next month is the last day of this one.
	last := time.Date(year, time.Month(month)+1, 0, 0, 0, 0, 0, time.UTC).Day()
	if day < 1 || day > last {
		return fmt.Errorf("day %02d does not exist; %s %04d has days 01 to %02d", day, time.Month(month), year, last)
	}
	return nil
}

// checkFullTime validates HH:MM:SS[.frac](Z|+HH:MM|-HH:MM), allowing second
// 60 only at 23:59 UTC.
func checkFullTime(s string) error {
	const form = `time part is not HH:MM:SS followed by Z or an offset like +02:00`
	if len(s) < 8 || s[2] != ':' || s[5] != ':' {
		return errors.New(form)
	}
	hour, ok1 := digits(s[0:2])
	minute, ok2 := digits(s[3:5])
	second, ok3 := digits(s[6:8])
	if !ok1 || !ok2 || !ok3 {
		return errors.New(form)
	}
	rest := s[8:]
	if strings.HasPrefix(rest, ".") {
		n := 1
		for n < len(rest) && '0' <= rest[n] && rest[n] <= '9' {
			n++
		}
		if n == 1 {
			return fmt.Errorf("fraction of a second needs at least one digit after the dot")
		}
		rest = rest[n:]
	}
	offset, err := parseOffset(rest)
	if err != nil {
		return err
	}
	switch {
	case hour > 23:
		return fmt.Errorf("hour %02d does not exist; hours run 00 to 23", hour)
	case minute > 59:
		return fmt.Errorf("minute %02d does not exist; minutes run 00 to 59", minute)
	case second > 60:
		return fmt.Errorf("second %02d does not exist; seconds run 00 to 59 (60 only for a leap second)", second)
	case second == 60:
		utc := ((hour*60+minute-offset)%1440 + 1440) % 1440
		if utc != 23*60+59 {
			return fmt.Errorf("second 60 is a leap second, which happens only at 23:59:60 UTC")
		}
	}
	return nil
}

// parseOffset reads Z, z, +HH:MM or -HH:MM and returns the offset in
// minutes east of UTC.
func parseOffset(s string) (int, error) {
	if s == "Z" || s == "z" {
		return 0, nil
	}
	if s == "" {
		return 0, fmt.Errorf(`time has no offset; add Z for UTC or an offset like +02:00`)
	}
	if len(s) != 6 || (s[0] != '+' && s[0] != '-') || s[3] != ':' {
		return 0, fmt.Errorf("offset %q is not Z, +HH:MM or -HH:MM", s)
	}
	h, ok1 := digits(s[1:3])
	m, ok2 := digits(s[4:6])
	if !ok1 || !ok2 {
		return 0, fmt.Errorf("offset %q is not Z, +HH:MM or -HH:MM", s)
	}
	if h > 23 || m > 59 {
		return 0, fmt.Errorf("offset %q is out of range; hours run 00 to 23 and minutes 00 to 59", s)
	}
	off := h*60 + m
	if s[0] == '-' {
		off = -off
	}
	return off, nil
}

// digits parses s as an unsigned decimal made only of ASCII digits.
func digits(s string) (int, bool) {
	n := 0
	for i := 0; i < len(s); i++ {
		if s[i] < '0' || s[i] > '9' {
			return 0, false
		}
		n = n*10 + int(s[i]-'0')
	}
	return n, len(s) > 0
}
